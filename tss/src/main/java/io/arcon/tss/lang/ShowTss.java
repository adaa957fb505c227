package io.arcon.tss.lang;

/** {@code SHOW TSS}: lists the defined temporal stream states. */
public record ShowTss() implements Statement {}

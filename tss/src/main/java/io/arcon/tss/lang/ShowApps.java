package io.arcon.tss.lang;

/** {@code SHOW APPS}: lists the applications registered with the control plane. */
public record ShowApps() implements Statement {}

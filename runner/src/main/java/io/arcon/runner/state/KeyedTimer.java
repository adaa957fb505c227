package io.arcon.runner.state;

import org.apache.beam.runners.core.TimerInternals.TimerData;

/** A timer together with the coder-encoded key it was set for. */
public record KeyedTimer(byte[] encodedKey, TimerData timer) {}

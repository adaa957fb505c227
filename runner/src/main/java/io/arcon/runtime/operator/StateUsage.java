package io.arcon.runtime.operator;

/**
 * The state an operator instance keeps: its engine ({@code heap}, {@code rocksdb}, {@code lmdb})
 * and the engine's approximate size in bytes (memory for heap, files and memtables for the others).
 */
public record StateUsage(String engine, long approximateBytes) {}

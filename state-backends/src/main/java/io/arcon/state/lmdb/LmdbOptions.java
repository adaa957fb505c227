package io.arcon.state.lmdb;

import io.arcon.state.OptionValues;
import java.util.List;
import java.util.Map;

/**
 * Tuning of the lmdb engine, from {@link io.arcon.state.StateBackendConfig#options()}.
 *
 * @param mapSizeBytes {@code lmdb.mapSizeBytes}: initial size of the memory map (default 256 MiB);
 *     it doubles on demand when full, so this only saves the first few resizes
 * @param maxTables {@code lmdb.maxTables}: most tables one backend can hold (default 256)
 * @param writeBatchOps {@code lmdb.writeBatchOps}: writes grouped into one LMDB transaction before
 *     it is committed (default 10000); larger batches write faster, and a killed process loses at
 *     most the uncommitted batch
 */
public record LmdbOptions(long mapSizeBytes, int maxTables, int writeBatchOps) {
  public static final String MAP_SIZE_BYTES = "lmdb.mapSizeBytes";
  public static final String MAX_TABLES = "lmdb.maxTables";
  public static final String WRITE_BATCH_OPS = "lmdb.writeBatchOps";

  /** Every key this engine reads. */
  public static final List<String> KEYS = List.of(MAP_SIZE_BYTES, MAX_TABLES, WRITE_BATCH_OPS);

  public static LmdbOptions defaults() {
    return parse(Map.of());
  }

  /** Reads this engine's keys; keys of other engines are ignored (the registry checks them). */
  public static LmdbOptions parse(Map<String, String> options) {
    return new LmdbOptions(
        OptionValues.longInRange(options, MAP_SIZE_BYTES, 256L << 20, 1L << 20, 1L << 46),
        OptionValues.intInRange(options, MAX_TABLES, 256, 1, 32_767),
        OptionValues.intInRange(options, WRITE_BATCH_OPS, 10_000, 1, 10_000_000));
  }
}

package io.arcon.runner.state;

import io.arcon.state.CloseableIterator;
import io.arcon.state.KeyBytes;
import io.arcon.state.StateBackend;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.runners.core.TimerInternals.TimerDataCoderV2;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.CausedByDrain;
import org.joda.time.Instant;

/**
 * The pending timers of one transform instance in the backend's tables, so that they are part of
 * every backend snapshot as they are: the store of the persistent engines (timers beyond memory),
 * and the snapshot medium of {@link HeapTimerStore}. Single-threaded, like the node that owns it.
 *
 * <h2>Binary layout</h2>
 *
 * <p>A timer's <b>identity</b> ({@link TimerIdentities}) is {@code lp(encoded key)
 * lp(namespace.stringKey()) lp(timerFamilyId) lp(timerId)} ({@code lp} = 4-byte big-endian length +
 * UTF-8/raw bytes); setting a timer with an existing identity replaces it, whatever its domain.
 * {@code ts(t)} is the epoch millis as 8 bytes big-endian with the sign bit flipped (byte order =
 * time order).
 *
 * <ul>
 *   <li>{@value #TIMERS_TABLE}: identity → {@code range(1) ts(timestamp) ts(outputTimestamp)},
 *       enough to find the timer's index rows when it is replaced or deleted.
 *   <li>{@value #TIMER_INDEX_TABLE}: {@code range(1) ts(timestamp) identity} → the TimerData
 *       encoded with {@link TimerDataCoderV2}. Ordered by range, time, then identity, so the next
 *       timer of a range is its first row and ties fire in a deterministic order.
 *   <li>{@value #HOLD_INDEX_TABLE}: {@code ts(outputTimestamp) identity} → empty, for the timers
 *       whose hold the index does not give (below).
 * </ul>
 *
 * <p>Ranges: {@value #HELD_AT_FIRING} = event-time timers whose output timestamp is their firing
 * time (Beam's default for event time), 1 = processing time, 2 = synchronized processing time,
 * {@value #EVENT_TIME_OTHER} = the other event-time timers; event-time polls merge ranges 0 and 3
 * by (time, identity). The minimum hold ({@link #minimumOutputTimestamp()}) is the smaller of the
 * first time of range 0 and the first row of the hold index, which has a row for every other timer
 * that holds (an output timestamp of {@link BoundedWindow#TIMESTAMP_MAX_VALUE} holds nothing). So
 * the common timer (a window's end, a key's cleanup) is two rows, not three: at a million keys the
 * third row was a quarter of the rows RocksDB stored, and scanning it for the hold after every
 * bundle a tenth of the time.
 */
public final class BackendTimerStore implements TimerStore {
  public static final String TIMERS_TABLE = "beam_timers";
  public static final String TIMER_INDEX_TABLE = "beam_timer_index";
  public static final String HOLD_INDEX_TABLE = "beam_timer_holds";

  /**
   * The hold table of earlier versions, with a row for every timer: a snapshot that has it was
   * written with the older layout, which this store cannot read correctly.
   */
  static final String LEGACY_OUTPUT_INDEX_TABLE = "beam_timer_output_index";

  /** Index range of event-time timers whose output timestamp is their firing time. */
  static final int HELD_AT_FIRING = 0;

  /** Index range of the other event-time timers (earlier output timestamps, or no hold). */
  static final int EVENT_TIME_OTHER = 3;

  private static final int RANGES = 4;
  private static final long NO_HOLD = BoundedWindow.TIMESTAMP_MAX_VALUE.getMillis();

  private static final byte[] EMPTY = new byte[0];
  private static final int LOCATION_BYTES = 17;
  private static final int INDEX_PREFIX_BYTES = 9;

  private final StateTable timers;
  private final StateTable timerIndex;
  private final StateBackend backend;
  private final StateTable holdIndex;
  private final TimerDataCoderV2 timerCoder;
  private final OrderedBytes keyBuilder = new OrderedBytes(128);
  private final OrderedBytes valueBuilder = new OrderedBytes(128);

  /**
   * Per domain code, an index key below which the index certainly has no row of that domain, or
   * null for the domain's start. Polls start their scan there: in LSM engines (RocksDB) fired and
   * replaced timers leave tombstones at the front of the index, and seeking past them on every poll
   * would make draining n timers cost O(n^2). It is a whole key, not a timestamp, because many
   * timers share one timestamp (every key's end-of-window cleanup timer): a timestamp bound would
   * still step over all fired timers of that timestamp. Lowered by {@link #setTimer}, raised by
   * what scans find.
   */
  private final byte[][] emptyBelow = new byte[RANGES][];

  /**
   * Per range, whether {@link #emptyBelow} is exactly the range's first row (a scan found it there,
   * or a timer was set below everything). Then the range's first time is known without a scan:
   * {@link #minimumOutputTimestamp()} asks for it after every bundle, and a scan first writes back
   * the row cache of a persistent engine.
   */
  private final boolean[] emptyBelowIsFirst = new boolean[RANGES];

  /**
   * Per domain code, the domain's first index rows, due when read, that one scan read ahead. A
   * drain (the watermark passing every key's end-of-window timer) polls them one by one without a
   * new scan each: opening and seeking an iterator was about half of a RocksDB poll. Kept only
   * while they are the domain's first rows: adding or removing a row at or before the last of them
   * drops them; polls take them from the front.
   */
  private final ReadAhead[] readAhead = {
    new ReadAhead(), new ReadAhead(), new ReadAhead(), new ReadAhead()
  };

  private final TimerIdentities identities = new TimerIdentities();

  public BackendTimerStore(StateBackend backend, Coder<? extends BoundedWindow> windowCoder) {
    Objects.requireNonNull(backend, "backend");
    this.timerCoder = TimerDataCoderV2.of(Objects.requireNonNull(windowCoder, "windowCoder"));
    this.timers = backend.table(TIMERS_TABLE);
    this.timerIndex = backend.table(TIMER_INDEX_TABLE);
    this.holdIndex = backend.table(HOLD_INDEX_TABLE);
    this.backend = backend;
    refuseLegacyLayout();
  }

  /**
   * Fails when the backend holds timers in the layout of earlier versions (a hold row per timer):
   * read with this layout, their holds would never be released.
   */
  private void refuseLegacyLayout() {
    if (!backend.tableNames().contains(LEGACY_OUTPUT_INDEX_TABLE)) {
      return;
    }
    try (CloseableIterator<StateEntry> it = backend.table(LEGACY_OUTPUT_INDEX_TABLE).iterator()) {
      if (it.hasNext()) {
        throw new IllegalStateException(
            "This state holds timers in the layout of an earlier ArconRunner (table "
                + LEGACY_OUTPUT_INDEX_TABLE
                + "), which this version does not read. Resume the checkpoint with the version that"
                + " wrote it, or start the pipeline without --restoreFrom.");
      }
    }
  }

  /** The index range of a timer: see the class comment. */
  private static int rangeOf(TimerData timer) {
    int domain = domainCode(timer.getDomain());
    if (domain != HELD_AT_FIRING) {
      return domain;
    }
    return timer.getOutputTimestamp().getMillis() == timer.getTimestamp().getMillis()
        ? HELD_AT_FIRING
        : EVENT_TIME_OTHER;
  }

  /** Whether a timer of {@code range} with {@code outputTs} has a row in the hold index. */
  private static boolean hasHoldRow(int range, long outputTs) {
    return range != HELD_AT_FIRING && outputTs < NO_HOLD;
  }

  /**
   * Sets {@code timer} for the key, replacing the timer with the same (key, namespace, family, id).
   * A TimerData marked deleted deletes that timer instead.
   */
  @Override
  public void setTimer(byte[] encodedKey, TimerData timer) {
    byte[] identity =
        identity(encodedKey, timer.getNamespace(), timer.getTimerFamilyId(), timer.getTimerId());
    if (timer.getDeleted()) {
      removeByIdentity(identity);
      return;
    }
    int domain = rangeOf(timer);
    long ts = timer.getTimestamp().getMillis();
    long outputTs = timer.getOutputTimestamp().getMillis();
    byte[] location =
        valueBuilder
            .reset()
            .writeByte(domain)
            .writeOrderedLong(ts)
            .writeOrderedLong(outputTs)
            .toByteArray();
    byte[] previous = timers.get(identity);
    if (previous != null && Arrays.equals(previous, location)) {
      // Re-set at the same place (the per-element GC timer of a GroupByKey): identity and location
      // are every field of the TimerData, so the stored rows already say this; writing nothing
      // also spares LSM engines the rewrite.
      return;
    }
    byte[] indexKey = indexKey(domain, ts, identity);
    if (previous != null) {
      removeIndexRows(identity, previous);
    }
    readAhead[domain].dropUnlessAfterLast(indexKey);
    timers.put(identity, location);
    timerIndex.put(indexKey, encode(timer));
    if (hasHoldRow(domain, outputTs)) {
      holdIndex.put(outputKey(outputTs, identity), EMPTY);
    }
    byte[] hint = emptyBelow[domain];
    if (hint != null && KeyBytes.compare(indexKey, hint) < 0) {
      emptyBelow[domain] = indexKey;
      emptyBelowIsFirst[domain] = true;
    }
  }

  /**
   * Deletes the timer with this (key, namespace, family, id), if any. The domain is not part of a
   * timer's identity (as in runners-core's in-memory timers) and is accepted for API symmetry.
   */
  @Override
  public void deleteTimer(
      byte[] encodedKey,
      StateNamespace namespace,
      String timerId,
      String timerFamilyId,
      TimeDomain domain) {
    removeByIdentity(identity(encodedKey, namespace, timerFamilyId, timerId));
  }

  /**
   * Removes and returns the timer of {@code domain} with the smallest timestamp strictly before
   * {@code bound} (ties broken by key, namespace, family, id bytes), or null if there is none.
   */
  @Override
  public KeyedTimer pollFirstBefore(TimeDomain domain, Instant bound) {
    int code = domainCode(domain);
    StateEntry first = firstFrom(code, bound.getMillis(), true);
    if (code == HELD_AT_FIRING) {
      StateEntry other = firstFrom(EVENT_TIME_OTHER, bound.getMillis(), true);
      if (other != null && (first == null || comesFirst(other.key(), first.key()))) {
        code = EVENT_TIME_OTHER;
        first = other;
      }
    }
    if (first == null) {
      return null;
    }
    // A due row found for a poll is always the read-ahead's head (firstFrom put it there).
    ReadAhead ahead = readAhead[code];
    ahead.pop();
    if (ahead.head() != null) {
      emptyBelow[code] = ahead.head().key();
      emptyBelowIsFirst[code] = true;
    } else {
      emptyBelowIsFirst[code] = false;
    }
    TimerData timer = decode(first.value());
    byte[] identity = Arrays.copyOfRange(first.key(), INDEX_PREFIX_BYTES, first.key().length);
    timerIndex.delete(first.key());
    timers.delete(identity);
    long outputTs = timer.getOutputTimestamp().getMillis();
    if (hasHoldRow(code, outputTs)) {
      holdIndex.delete(outputKey(outputTs, identity));
    }
    return new KeyedTimer(TimerIdentities.encodedKey(identity), timer);
  }

  /** Whether index row {@code a} fires before {@code b} of the other range: by time, identity. */
  private static boolean comesFirst(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, 1, a.length, b, 1, b.length) < 0;
  }

  /** The earliest pending timestamp in {@code domain}, or null when none is pending. */
  @Override
  public Instant nextTimestamp(TimeDomain domain) {
    int code = domainCode(domain);
    long next = firstTime(code);
    if (code == HELD_AT_FIRING) {
      next = Math.min(next, firstTime(EVENT_TIME_OTHER));
    }
    return next == Long.MAX_VALUE ? null : Instant.ofEpochMilli(next);
  }

  /** The first time of index range {@code code}, or {@code Long.MAX_VALUE} when it is empty. */
  private long firstTime(int code) {
    if (emptyBelowIsFirst[code]) {
      return OrderedBytes.readOrderedLong(emptyBelow[code], 1);
    }
    StateEntry first = firstFrom(code, Long.MAX_VALUE, false);
    return first == null ? Long.MAX_VALUE : OrderedBytes.readOrderedLong(first.key(), 1);
  }

  /**
   * The first index row of the domain with a timestamp below {@code limitMillis} (exclusive; {@code
   * Long.MAX_VALUE} means the whole domain), starting at the scan hint and moving the hint up to
   * what was found. For a poll ({@code forPoll}) the scan also reads ahead the due rows after it.
   */
  private StateEntry firstFrom(int code, long limitMillis, boolean forPoll) {
    StateEntry head = readAhead[code].head();
    if (head != null) {
      return isBefore(head.key(), limitMillis) ? head : null;
    }
    byte[] from = emptyBelow[code];
    if (from != null && noRowBefore(from, code, limitMillis)) {
      return null; // the usual answer, given without building a key
    }
    if (from == null) {
      from = new byte[] {(byte) code};
    }
    byte[] domainEnd = {(byte) (code + 1)};
    byte[] to =
        limitMillis == Long.MAX_VALUE
            ? domainEnd
            : keyBuilder.reset().writeByte(code).writeOrderedLong(limitMillis).toByteArray();
    // Up to the domain's end, not the limit: the first row found, due or not, is a hint that lets
    // the next polls with a limit below it (the time-sorted release polls before every element)
    // answer without a scan.
    try (CloseableIterator<StateEntry> it = timerIndex.scan(from, domainEnd)) {
      if (!it.hasNext()) {
        emptyBelow[code] = domainEnd;
        emptyBelowIsFirst[code] = false;
        return null;
      }
      // Everything of the domain below the first row is empty (a polled row is deleted next).
      StateEntry first = it.next();
      emptyBelow[code] = first.key();
      emptyBelowIsFirst[code] = true;
      boolean due = KeyBytes.compare(first.key(), to) < 0;
      if (!due || !forPoll) {
        return due ? first : null;
      }
      ReadAhead ahead = readAhead[code];
      ahead.add(first);
      while (!ahead.isFull() && it.hasNext()) {
        StateEntry next = it.next();
        if (!isBefore(next.key(), limitMillis)) {
          break;
        }
        ahead.add(next);
      }
      return first;
    }
  }

  /** Whether an index key's timestamp is below {@code limitMillis} ({@code MAX_VALUE}: any). */
  private static boolean isBefore(byte[] indexKey, long limitMillis) {
    return limitMillis == Long.MAX_VALUE || OrderedBytes.readOrderedLong(indexKey, 1) < limitMillis;
  }

  /**
   * Whether the hint {@code from} is at or after the index key {@code code ts(limitMillis)} (the
   * whole domain for {@code Long.MAX_VALUE}): then the domain has no row below the limit.
   */
  private static boolean noRowBefore(byte[] from, int code, long limitMillis) {
    int domain = from[0] & 0xff;
    if (domain != code) {
      return domain > code;
    }
    return limitMillis != Long.MAX_VALUE
        && from.length >= INDEX_PREFIX_BYTES
        && OrderedBytes.readOrderedLong(from, 1) >= limitMillis;
  }

  /** Nothing to bring up to date: every change is in the tables already. */
  @Override
  public void beforeSnapshot() {}

  @Override
  public void afterSnapshot() {}

  /** Nothing beyond the backend: the timers are its rows. */
  @Override
  public long approximateSizeBytes() {
    return 0;
  }

  /** Deletes every timer. */
  void clear() {
    byte[] everything = new byte[0];
    timers.deletePrefix(everything);
    timerIndex.deletePrefix(everything);
    holdIndex.deletePrefix(everything);
    afterRestore();
  }

  /** Passes every pending timer, with its encoded key and identity, to {@code consumer}. */
  void forEachTimer(TimerConsumer consumer) {
    try (CloseableIterator<StateEntry> it = timerIndex.iterator()) {
      while (it.hasNext()) {
        StateEntry row = it.next();
        byte[] identity = Arrays.copyOfRange(row.key(), INDEX_PREFIX_BYTES, row.key().length);
        consumer.accept(TimerIdentities.encodedKey(identity), identity, decode(row.value()));
      }
    }
  }

  /** What {@link #forEachTimer} passes each timer to. */
  interface TimerConsumer {
    void accept(byte[] encodedKey, byte[] identity, TimerData timer);
  }

  /**
   * Forgets what this store has learned about where timers can be, after the backend's content was
   * replaced by {@link StateBackend#restore}. Must be called after every restore of the backend
   * this store uses (a store created after the restore needs no call).
   */
  public void afterRestore() {
    refuseLegacyLayout();
    Arrays.fill(emptyBelow, null);
    Arrays.fill(emptyBelowIsFirst, false);
    for (ReadAhead ahead : readAhead) {
      ahead.drop();
    }
  }

  /**
   * The minimum output timestamp over all pending timers of every domain (it holds the output
   * watermark), or {@link BoundedWindow#TIMESTAMP_MAX_VALUE} when no timer is pending.
   */
  @Override
  public Instant minimumOutputTimestamp() {
    long minimum = firstTime(HELD_AT_FIRING);
    try (CloseableIterator<StateEntry> it = holdIndex.iterator()) {
      if (it.hasNext()) {
        minimum = Math.min(minimum, OrderedBytes.readOrderedLong(it.next().key(), 0));
      }
    }
    return minimum >= NO_HOLD ? BoundedWindow.TIMESTAMP_MAX_VALUE : Instant.ofEpochMilli(minimum);
  }

  /** The pending timer with this identity, or null. */
  @Override
  public TimerData getTimer(
      byte[] encodedKey, StateNamespace namespace, String timerId, String timerFamilyId) {
    byte[] identity = identity(encodedKey, namespace, timerFamilyId, timerId);
    byte[] location = timers.get(identity);
    if (location == null) {
      return null;
    }
    return decode(
        timerIndex.get(indexKey(location[0], OrderedBytes.readOrderedLong(location, 1), identity)));
  }

  private void removeByIdentity(byte[] identity) {
    byte[] location = timers.get(identity);
    if (location != null) {
      removeIndexRows(identity, location);
      timers.delete(identity);
    }
  }

  private void removeIndexRows(byte[] identity, byte[] location) {
    if (location.length != LOCATION_BYTES) {
      throw new IllegalStateException(
          "Corrupt timer row in table "
              + TIMERS_TABLE
              + ": expected "
              + LOCATION_BYTES
              + " bytes, found "
              + location.length);
    }
    byte[] indexKey = indexKey(location[0], OrderedBytes.readOrderedLong(location, 1), identity);
    readAhead[location[0]].dropUnlessAfterLast(indexKey);
    if (emptyBelowIsFirst[location[0]] && Arrays.equals(indexKey, emptyBelow[location[0]])) {
      emptyBelowIsFirst[location[0]] = false;
    }
    timerIndex.delete(indexKey);
    long outputTs = OrderedBytes.readOrderedLong(location, 9);
    if (hasHoldRow(location[0], outputTs)) {
      holdIndex.delete(outputKey(outputTs, identity));
    }
  }

  /**
   * Index rows read ahead, in index order, taken from the front. How many one scan reads adapts: it
   * doubles (up to 128) each time all were taken and falls back to one when rows are dropped, so
   * firings that keep setting timers among the rows read (a looping timer) cost about one row per
   * scan, as without read-ahead, while a drain reads many.
   */
  private static final class ReadAhead {
    private static final int MAX_ROWS = 128;

    private final StateEntry[] rows = new StateEntry[MAX_ROWS];
    private int capacity = 1;
    private int next;
    private int end;

    /** The first row not yet taken, or null. */
    StateEntry head() {
      return next < end ? rows[next] : null;
    }

    void pop() {
      rows[next++] = null;
      if (next == end) {
        next = 0;
        end = 0;
        capacity = Math.min(capacity * 2, MAX_ROWS);
      }
    }

    boolean isFull() {
      return end == capacity;
    }

    void add(StateEntry row) {
      rows[end++] = row;
    }

    /**
     * Drops the rows when {@code indexKey} sorts at or before the last of them: a row added or
     * removed there would make them no longer the domain's first rows.
     */
    void dropUnlessAfterLast(byte[] indexKey) {
      if (next < end && KeyBytes.compare(indexKey, rows[end - 1].key()) <= 0) {
        drop();
        capacity = 1;
      }
    }

    void drop() {
      Arrays.fill(rows, next, end, null);
      next = 0;
      end = 0;
    }
  }

  private byte[] identity(
      byte[] encodedKey, StateNamespace namespace, String timerFamilyId, String timerId) {
    return identities.of(encodedKey, namespace, timerFamilyId, timerId);
  }

  private byte[] indexKey(int domain, long ts, byte[] identity) {
    return keyBuilder
        .reset()
        .writeByte(domain)
        .writeOrderedLong(ts)
        .writeBytes(identity)
        .toByteArray();
  }

  private byte[] outputKey(long outputTs, byte[] identity) {
    return keyBuilder.reset().writeOrderedLong(outputTs).writeBytes(identity).toByteArray();
  }

  /**
   * Beam's timer coder, then one byte {@link #CAUSED_BY_DRAIN} for a timer a drain caused: the
   * coder drops {@code causedByDrain}, so without it such a timer would fire after a restore (and
   * on these engines after any poll) as an ordinary one. Rows of earlier versions end after the
   * coder's bytes and read as ordinary timers.
   */
  private byte[] encode(TimerData timer) {
    valueBuilder.reset();
    try {
      timerCoder.encode(timer, valueBuilder);
    } catch (IOException e) {
      throw new IllegalArgumentException("Could not encode timer " + timer, e);
    }
    if (timer.causedByDrain() == CausedByDrain.CAUSED_BY_DRAIN) {
      valueBuilder.writeByte(CAUSED_BY_DRAIN);
    }
    return valueBuilder.toByteArray();
  }

  private static final int CAUSED_BY_DRAIN = 1;

  private TimerData decode(byte[] bytes) {
    try {
      ByteArrayInputStream in = new ByteArrayInputStream(bytes);
      TimerData timer = timerCoder.decode(in);
      if (in.read() != CAUSED_BY_DRAIN) {
        return timer;
      }
      return TimerData.of(
          timer.getTimerId(),
          timer.getTimerFamilyId(),
          timer.getNamespace(),
          timer.getTimestamp(),
          timer.getOutputTimestamp(),
          timer.getDomain(),
          CausedByDrain.CAUSED_BY_DRAIN);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(
          "Could not decode a stored timer with "
              + timerCoder
              + ": was the snapshot written with a different window coder?",
          e);
    }
  }

  static int domainCode(TimeDomain domain) {
    return switch (domain) {
      case EVENT_TIME -> 0;
      case PROCESSING_TIME -> 1;
      case SYNCHRONIZED_PROCESSING_TIME -> 2;
    };
  }
}

package io.arcon.tss.agent;

import io.arcon.tss.model.KeyLiterals;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateRow;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * What an app implements so {@link TssAgent} can export its state: the catalog of its states, and
 * the rows of one state as of a version time.
 */
public interface StateSource {

  /** The app's extractable states; sent to the control plane when the agent registers. */
  List<StateDescriptor> states();

  /**
   * The rows of {@code stateName} at version time {@code versionTime}.
   *
   * <p>For an {@code EXACT} state: the state after exactly the updates with event time strictly
   * before {@code versionTime}, read from its version chain. Every row's {@code updatedAt} must be
   * before {@code versionTime}; the agent fails the version otherwise.
   *
   * <p>For a {@code WATERMARK_CUT} state: the state as it was when the app's watermark passed
   * {@code versionTime} (the app keeps that snapshot until asked: the assignment arrives after the
   * watermark report). Rows may carry later {@code updatedAt}s.
   *
   * @param keyFilter only rows with this key (a value of the state's key type as parsed by {@link
   *     KeyLiterals#parse}), or null for all keys. The agent re-checks the filter, so a source may
   *     ignore it, but filtering at the source avoids reading every key.
   * @return the rows; when the returned object is also {@link AutoCloseable}, the agent closes it
   *     once the version's file is written or has failed, so a read the writer stopped early (a
   *     failed write) can release what it holds
   * @throws Exception if the state cannot be read; the version is reported failed with its message
   */
  Iterable<StateRow> rows(String stateName, Instant versionTime, Object keyFilter) throws Exception;

  /**
   * Which of the app's states some TSS reads now: the control plane says so after each registration
   * and whenever the set changes (a TSS created, dropped, or past its last version). A source may
   * keep what a {@code WATERMARK_CUT} state's versions need only while it is read; a TSS is created
   * with an AT after the app's watermark, so recording from this call on is enough. Called on the
   * agent's thread; must not block.
   *
   * @param stateNames canonical state names (as in {@link #states()}); empty when none is read
   */
  default void statesRead(Set<String> stateNames) {}
}

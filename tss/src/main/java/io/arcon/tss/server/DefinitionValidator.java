package io.arcon.tss.server;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.lang.CreateTss;
import io.arcon.tss.lang.StateRef;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.KeyLiterals;
import io.arcon.tss.model.Names;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.proto.Consistency;
import io.arcon.tss.write.DuckDbTransform;
import io.grpc.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The checks of a CREATE TSS before anything is scheduled: names, times, the apps and states it
 * extracts and their key type, the TRANSFORM SQL, and that neither the catalog nor the lake holds a
 * TSS of that name. Each refusal says what to change.
 */
final class DefinitionValidator {
  private final AppRegistry apps;
  private final TssCatalog tsss;
  private final LakeLayout lake;
  private final VersionCommitter committer;
  private final DroppedExtractions droppedExtractions;

  DefinitionValidator(
      AppRegistry apps,
      TssCatalog tsss,
      LakeLayout lake,
      VersionCommitter committer,
      DroppedExtractions droppedExtractions) {
    this.apps = apps;
    this.tsss = tsss;
    this.lake = lake;
    this.committer = committer;
    this.droppedExtractions = droppedExtractions;
  }

  /**
   * Under the control plane's lock: checks the statement against the catalog and turns it into a
   * definition, with each state's schema as its app registered it.
   */
  TssSpec validate(CreateTss create) {
    String name = ControlPlaneException.asInvalid(() -> Names.requireValid(create.name(), "TSS"));
    requireNewName(name);
    Instant createdAt = Instant.now();
    // FOR EACH and UNTIL were checked when the statement became a CreateTss.
    List<TssSpec.ExtractedState> states = new ArrayList<>();
    Set<String> horizonChecked = new HashSet<>();
    // SQL (TRANSFORM, QUERY) names a state's table app.state, and SQL names ignore case.
    Map<String, StateRef> tables = new HashMap<>();
    for (StateRef ref : create.states()) {
      String appName = ControlPlaneException.asInvalid(() -> Names.requireValid(ref.app(), "app"));
      String stateName =
          ControlPlaneException.asInvalid(() -> Names.requireValidState(ref.state()));
      StateRef same = tables.putIfAbsent((appName + "." + stateName).toLowerCase(Locale.ROOT), ref);
      if (same != null && same.toString().equals(ref.toString())) {
        throw ControlPlaneException.invalid(ref + " is extracted twice; name each state once");
      }
      if (same != null) {
        throw ControlPlaneException.invalid(
            same
                + " and "
                + ref
                + " differ only in case, but TRANSFORM and QUERY name a state's table"
                + " app.state in SQL, whose names ignore case: both would be one table. Extract"
                + " them in two TSSs, or run one of the apps under another --jobName.");
      }
      StateDescriptor state = registeredState(appName, stateName);
      if (state.consistency() == Consistency.WATERMARK_CUT) {
        requireAfterWatermark(apps.require(appName), ref, create.at());
      }
      if (horizonChecked.add(appName)) {
        AppState app = apps.require(appName);
        requireStateKept(app);
        requireWithinHistory(app, create.at());
      }
      if (create.keyLiteral() != null) {
        requireKeyFits(ref, state.schema().keyType(), create.keyLiteral());
      }
      states.add(new TssSpec.ExtractedState(appName, stateName, state.schema()));
    }
    return new TssSpec(
        name,
        create.text(),
        states,
        create.keyLiteral(),
        create.at(),
        create.timeZone(),
        create.every(),
        create.until(),
        create.diff(),
        create.transformSql(),
        createdAt);
  }

  private StateDescriptor registeredState(String appName, String stateName) {
    AppState app = apps.require(appName);
    StateDescriptor state = app.state(stateName);
    if (state == null) {
      String valid =
          app.states().stream().map(StateDescriptor::name).collect(Collectors.joining(", "));
      throw ControlPlaneException.notFound(
          "app "
              + appName
              + " has no state '"
              + stateName
              + "'; its states are: "
              + (valid.isEmpty() ? "(none)" : valid));
    }
    return state;
  }

  /**
   * An app whose input ended has dropped its state, or will as soon as it sealed what is due for it
   * (Drained), and stopped: no version of a new TSS could be extracted from it. A run of the app
   * under the same name registers again and is live.
   */
  private static void requireStateKept(AppState app) {
    if (app.finished() && (!app.connected() || app.drainedSent())) {
      throw new ControlPlaneException(
          Status.Code.FAILED_PRECONDITION,
          "app "
              + app.name()
              + " has finished (its input ended at "
              + app.finishedAt()
              + ") and no longer holds its state; run it again (it registers under the same"
              + " name) and create the TSS while it runs");
    }
  }

  /**
   * The first version must still be in the app's state history: a version at T is read from the
   * per-key chains, which the app prunes before its history horizon.
   */
  private static void requireWithinHistory(AppState app, Instant at) {
    Instant historyFrom = app.historyFrom();
    if (historyFrom != null && at.isBefore(historyFrom)) {
      throw new ControlPlaneException(
          Status.Code.OUT_OF_RANGE,
          "app "
              + app.name()
              + " keeps state history from "
              + historyFrom
              + "; AT "
              + at
              + " is older. Use AT >= "
              + historyFrom
              + " or run the app with a longer --stateHistory");
    }
  }

  /**
   * A watermark-cut state has history only while a TSS reads it (the app starts it when told, see
   * {@code StatesRead}), so a version at or before the app's watermark may have passed unrecorded.
   */
  private static void requireAfterWatermark(AppState app, StateRef ref, Instant at) {
    Instant watermark = app.watermark();
    if (watermark != null && !at.isAfter(watermark)) {
      throw new ControlPlaneException(
          Status.Code.OUT_OF_RANGE,
          "state "
              + ref
              + " is a watermark cut: app "
              + app.name()
              + " keeps its history only while a TSS reads it, and its watermark is at "
              + watermark
              + "; AT "
              + at
              + " is not after it. Use an AT after "
              + watermark
              + ", or export the transform exactly (--tssExport) to keep its history all along");
    }
  }

  private static void requireKeyFits(StateRef ref, FieldType keyType, String keyLiteral) {
    try {
      KeyLiterals.parse(keyType, keyLiteral);
    } catch (IllegalArgumentException e) {
      throw ControlPlaneException.invalid(
          "ON KEY does not fit state " + ref + " (key type " + keyType + "): " + e.getMessage());
    }
  }

  /**
   * Binds the TRANSFORM SQL against empty tables of the states' schemas. Needs no lock, and should
   * not hold it: DuckDB binding the SQL takes a while.
   */
  void checkTransform(TssSpec spec) {
    if (spec.transformSql() == null) {
      return;
    }
    try {
      DuckDbTransform.check(spec.transformSql(), spec.tables());
    } catch (IllegalArgumentException e) {
      throw ControlPlaneException.invalid("TRANSFORM is refused: " + e.getMessage());
    }
  }

  /**
   * Under the lock, right before the TSS is added: the name is still free, and the lake holds no
   * files under it. Files left by a TSS whose catalog was lost would show up as committed versions
   * of the new one, so they are refused rather than adopted.
   */
  void checkNoConflict(String name) {
    requireNewName(name);
    if (committer.lakeDirInUse(name)) {
      throw new ControlPlaneException(
          Status.Code.ALREADY_EXISTS,
          lake.tssDir(name)
              + " already holds files, not from a TSS this control plane knows; move them away"
              + " or pick another name");
    }
  }

  private void requireNewName(String name) {
    if (tsss.contains(name)) {
      throw new ControlPlaneException(
          Status.Code.ALREADY_EXISTS,
          "TSS " + name + " already exists; DROP TSS it first or pick a new name");
    }
    if (droppedExtractions.reserves(name)) {
      throw new ControlPlaneException(
          Status.Code.FAILED_PRECONDITION,
          "TSS "
              + name
              + " was dropped, but "
              + droppedExtractions.describe(name)
              + " still extract its versions; their files are removed when they finish. Try"
              + " again in a moment or pick another name");
    }
  }
}

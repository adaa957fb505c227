package io.arcon.tss.server;

import com.google.protobuf.util.Durations;
import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.lang.StatementResult;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.proto.Consistency;
import io.arcon.tss.proto.StateKind;
import io.arcon.tss.wire.ProtoTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/** The tables of SHOW APPS, DESCRIBE APP, SHOW TSS and DESCRIBE TSS, rendered from the catalog. */
final class CatalogTables {
  private CatalogTables() {}

  static StatementResult showApps(List<AppState.Snapshot> apps) {
    List<List<String>> rows = new ArrayList<>();
    for (AppState.Snapshot app : apps) {
      rows.add(
          List.of(
              app.name(),
              app.connected() ? "yes" : "no",
              orDash(app.watermark()),
              orDash(app.historyFrom()),
              orDash(app.finishedAt()),
              Integer.toString(app.states().size())));
    }
    return new StatementResult(
        List.of("app", "connected", "watermark", "history_from", "finished_at", "states"),
        rows,
        rows.size() + " apps");
  }

  private static String orDash(Instant time) {
    return time != null ? time.toString() : "-";
  }

  /**
   * Every state of the app with what EXTRACT and TRANSFORM need to know about it. Types are shown
   * with {@link io.arcon.tss.model.FieldType#describe()}, so an opaque value names its coder; the
   * backend or transform an app did not report shows as "-".
   */
  /**
   * What the app keeps of a state's past: an exact state's history is kept all along (within the
   * app's {@code --stateHistory}); a watermark cut's only while a TSS reads it.
   */
  private static String history(StateDescriptor state, Set<String> recording) {
    return switch (state.consistency()) {
      case EXACT -> "kept";
      case WATERMARK_CUT -> recording.contains(state.name()) ? "recording" : "not recorded";
      default -> "-";
    };
  }

  static StatementResult describeApp(AppState.Snapshot app) {
    List<List<String>> rows = new ArrayList<>();
    for (StateDescriptor s : app.states()) {
      rows.add(
          List.of(
              s.name(),
              orDash(s.transform()),
              s.stateId(),
              lowerCase(s.kind().name(), StateKind.STATE_KIND_UNSPECIFIED.name()),
              s.schema().keyType().describe(),
              s.schema().valueType().describe(),
              orDash(s.backend()),
              lowerCase(s.consistency().name(), Consistency.CONSISTENCY_UNSPECIFIED.name()),
              history(s, app.recording())));
    }
    String watermark = app.watermark() != null ? app.watermark().toString() : "none yet";
    if (app.historyFrom() != null) {
      watermark += ", history from " + app.historyFrom();
    }
    if (app.finishedAt() != null) {
      watermark += ", finished at " + app.finishedAt();
    }
    return new StatementResult(
        List.of(
            "state",
            "transform",
            "state_id",
            "kind",
            "key_type",
            "value_type",
            "backend",
            "consistency",
            "history"),
        rows,
        "app "
            + app.name()
            + " ("
            + (app.connected() ? "connected" : "disconnected")
            + ", watermark "
            + watermark
            + ")");
  }

  static StatementResult showTss(Collection<TssState> tsss) {
    List<List<String>> rows = new ArrayList<>();
    for (TssState tss : tsss) {
      TssSpec spec = tss.spec();
      rows.add(
          List.of(
              spec.name(),
              spec.states().stream()
                  .map(TssSpec.ExtractedState::table)
                  .collect(Collectors.joining(", ")),
              spec.at().toString(),
              spec.every() != null ? durationText(spec.every()) : "-",
              spec.until() != null ? spec.until().toString() : "-",
              spec.diff() ? "yes" : "no",
              spec.transformSql() != null ? "yes" : "no",
              Long.toString(tss.count(Version.Status.COMMITTED)),
              Long.toString(tss.count(Version.Status.PENDING)),
              Long.toString(tss.count(Version.Status.FAILED))));
    }
    return new StatementResult(
        List.of(
            "tss",
            "states",
            "at",
            "every",
            "until",
            "diff",
            "transform",
            "committed",
            "pending",
            "failed"),
        rows,
        rows.size() + " TSS");
  }

  private static String orDash(String text) {
    return text.isEmpty() ? "-" : text;
  }

  /** {@code VALUE} -> {@code value}; the unspecified constant -> "-". */
  private static String lowerCase(String constant, String unspecified) {
    return constant.equals(unspecified) ? "-" : constant.toLowerCase(Locale.ROOT);
  }

  /**
   * Every version of {@code tss} with where it stands; a waiting version names the apps it waits
   * for and why (their watermark, or that they are disconnected). Below the statement, one line per
   * finished app of the TSS says where the TSS stops because of it.
   */
  static StatementResult describeTss(
      TssState tss, AppRegistry apps, VersionScheduler scheduler, LakeLayout lake) {
    List<List<String>> rows = new ArrayList<>();
    for (Version version : tss.versions()) {
      String status;
      String detail;
      switch (version.status()) {
        case COMMITTED -> {
          status = "committed";
          // A record without a commit time shows the epoch, as its protobuf form reads.
          detail =
              "at "
                  + Objects.requireNonNullElse(version.committedAt(), Instant.EPOCH)
                  + (version.diffBase() != null ? ", diff against " + version.diffBase() : "");
        }
        case FAILED -> {
          status = "failed";
          detail = version.failure();
        }
        default -> {
          if (tss.isCommitting(version.time())) {
            status = "committing";
            detail = "all apps sealed";
          } else {
            status = allExtracting(version, apps) ? "extracting" : "waiting";
            detail = waitingDetail(version, apps);
          }
        }
      }
      rows.add(
          List.of(
              version.time().toString(),
              status,
              detail,
              lake.versionDir(tss.name(), version.time())));
    }
    StringBuilder message = new StringBuilder(tss.spec().statement());
    Instant lastVersion = scheduler.lastVersion(tss);
    for (String appName : tss.statesByApp().keySet()) {
      AppState app = apps.get(appName);
      if (app != null && app.finished()) {
        message
            .append('\n')
            .append("app ")
            .append(appName)
            .append(" finished at ")
            .append(app.finishedAt())
            .append("; last version ")
            .append(lastVersion);
      }
    }
    return new StatementResult(
        List.of("version", "status", "detail", "path"), rows, message.toString());
  }

  /**
   * Whether every app that has not sealed {@code version} is connected and past it, so it was
   * assigned the version and extracts it now.
   */
  private static boolean allExtracting(Version version, AppRegistry apps) {
    for (Version.AppProgress progress : version.apps()) {
      AppState app = apps.get(progress.app());
      if (!progress.sealed() && !extracting(app, version)) {
        return false;
      }
    }
    return true;
  }

  private static boolean extracting(AppState app, Version version) {
    return app != null && app.connected() && app.passed(version.time());
  }

  private static String waitingDetail(Version version, AppRegistry apps) {
    List<String> waiting = new ArrayList<>();
    for (Version.AppProgress progress : version.apps()) {
      if (progress.sealed()) {
        continue;
      }
      AppState app = apps.get(progress.app());
      String why;
      if (app == null) {
        why = "not registered";
      } else {
        String wm =
            app.finished()
                ? "finished at " + app.finishedAt()
                : app.watermark() == null ? "no watermark yet" : "watermark " + app.watermark();
        why =
            extracting(app, version)
                ? "extracting, " + wm
                : app.connected() ? wm : "disconnected, " + wm;
      }
      waiting.add(progress.app() + " (" + why + ")");
    }
    return "waiting on " + String.join(", ", waiting);
  }

  /** FOR EACH as the catalog's JSON writes it (e.g. {@code 300s}). */
  private static String durationText(Duration every) {
    return Durations.toString(ProtoTime.toProto(every));
  }
}

package io.arcon.tss.server;

import com.google.protobuf.util.Durations;
import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.lang.StatementResult;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.wire.ProtoTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
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
              app.watermark() != null ? app.watermark().toString() : "-",
              Integer.toString(app.states().size())));
    }
    return new StatementResult(
        List.of("app", "connected", "watermark", "states"), rows, rows.size() + " apps");
  }

  static StatementResult describeApp(AppState.Snapshot app) {
    List<List<String>> rows = new ArrayList<>();
    for (StateDescriptor s : app.states()) {
      rows.add(
          List.of(
              s.name(),
              s.transform(),
              s.stateId(),
              s.kind().name().toLowerCase(Locale.ROOT),
              s.schema().keyType().toString(),
              s.schema().valueType().toString(),
              s.backend(),
              s.consistency().name().toLowerCase(Locale.ROOT)));
    }
    String watermark = app.watermark() != null ? app.watermark().toString() : "none yet";
    return new StatementResult(
        List.of(
            "state",
            "transform",
            "state_id",
            "kind",
            "key_type",
            "value_type",
            "backend",
            "consistency"),
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
              Long.toString(tss.count(Version.Status.PENDING))));
    }
    return new StatementResult(
        List.of(
            "tss", "states", "at", "every", "until", "diff", "transform", "committed", "pending"),
        rows,
        rows.size() + " TSS");
  }

  /**
   * Every version of {@code tss} with where it stands; a waiting version names the apps it waits
   * for and why (their watermark, or that they are disconnected).
   */
  static StatementResult describeTss(TssState tss, AppRegistry apps, LakeLayout lake) {
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
            status = "waiting";
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
    return new StatementResult(
        List.of("version", "status", "detail", "path"), rows, tss.spec().statement());
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
        String wm = app.watermark() == null ? "no watermark yet" : "watermark " + app.watermark();
        why = app.connected() ? wm : "disconnected, " + wm;
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

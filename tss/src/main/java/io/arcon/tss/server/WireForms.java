package io.arcon.tss.server;

import io.arcon.tss.model.Names;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.proto.AppInfo;
import io.arcon.tss.proto.AppSummary;
import io.arcon.tss.proto.AppVersionState;
import io.arcon.tss.proto.Register;
import io.arcon.tss.proto.StateInfo;
import io.arcon.tss.proto.TssCatalogEntry;
import io.arcon.tss.proto.TssDefinition;
import io.arcon.tss.proto.VersionRecord;
import io.arcon.tss.proto.VersionStatus;
import io.arcon.tss.proto.WrittenFile;
import io.arcon.tss.wire.ProtoTime;
import io.arcon.tss.wire.StateInfos;
import io.arcon.tss.wire.TypeSpecs;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The protobuf forms of the control plane's objects, for its edges: the catalog files in the home
 * directory and the lake ({@link CatalogStore}, {@link VersionCommitter}) and the gRPC service
 * ({@link TssControlService}). Everything between the edges works on the plain objects.
 */
final class WireForms {
  private WireForms() {}

  // ---------------------------------------------------------------- TSS definitions

  static TssDefinition definition(TssSpec spec) {
    TssDefinition.Builder d =
        TssDefinition.newBuilder()
            .setName(spec.name())
            .setStatement(spec.statement())
            .setAt(ProtoTime.toProto(spec.at()))
            .setDiff(spec.diff());
    for (TssSpec.ExtractedState ref : spec.states()) {
      d.addStates(
          TssDefinition.StateRef.newBuilder()
              .setApp(ref.app())
              .setState(ref.state())
              .setKeyType(TypeSpecs.toProto(ref.schema().keyType()))
              .setValueType(TypeSpecs.toProto(ref.schema().valueType())));
    }
    if (spec.keyLiteral() != null) {
      d.setKeyLiteral(spec.keyLiteral());
    }
    if (spec.timeZone() != null) {
      d.setTimeZone(spec.timeZone());
    }
    if (spec.every() != null) {
      d.setEvery(ProtoTime.toProto(spec.every()));
    }
    if (spec.until() != null) {
      d.setUntil(ProtoTime.toProto(spec.until()));
    }
    if (spec.transformSql() != null) {
      d.setTransformSql(spec.transformSql());
    }
    if (spec.createdAt() != null) {
      d.setCreatedAt(ProtoTime.toProto(spec.createdAt()));
    }
    return d.build();
  }

  static TssSpec spec(TssDefinition d) {
    List<TssSpec.ExtractedState> states = new ArrayList<>();
    for (TssDefinition.StateRef ref : d.getStatesList()) {
      states.add(
          new TssSpec.ExtractedState(
              ref.getApp(),
              ref.getState(),
              new StateSchema(
                  TypeSpecs.fromProto(ref.getKeyType()), TypeSpecs.fromProto(ref.getValueType()))));
    }
    return new TssSpec(
        d.getName(),
        d.getStatement(),
        states,
        d.hasKeyLiteral() ? d.getKeyLiteral() : null,
        ProtoTime.toInstant(d.getAt()),
        d.getTimeZone().isEmpty() ? null : d.getTimeZone(),
        d.hasEvery() ? ProtoTime.toDuration(d.getEvery()) : null,
        d.hasUntil() ? ProtoTime.toInstant(d.getUntil()) : null,
        d.getDiff(),
        d.hasTransformSql() ? d.getTransformSql() : null,
        d.hasCreatedAt() ? ProtoTime.toInstant(d.getCreatedAt()) : null);
  }

  /** The catalog file of a TSS: its definition and its open versions. */
  static TssCatalogEntry catalogEntry(TssState tss) {
    TssCatalogEntry.Builder entry =
        TssCatalogEntry.newBuilder().setDefinition(definition(tss.spec()));
    for (Version version : tss.openVersions()) {
      entry.addVersions(record(version));
    }
    return entry.build();
  }

  // ---------------------------------------------------------------- versions

  static VersionRecord record(Version version) {
    VersionRecord.Builder r =
        VersionRecord.newBuilder()
            .setVersion(ProtoTime.toProto(version.time()))
            .setStatus(VersionStatus.valueOf(version.status().name()))
            .setFailure(version.failure());
    for (Version.AppProgress app : version.apps()) {
      AppVersionState.Builder a =
          AppVersionState.newBuilder()
              .setApp(app.app())
              .setSealed(app.sealed())
              .setFailure(app.failure());
      for (SealedFile file : app.files()) {
        a.addFiles(
            WrittenFile.newBuilder()
                .setState(file.state())
                .setPath(file.path())
                .setRows(file.rows()));
      }
      r.addApps(a);
    }
    if (version.committedAt() != null) {
      r.setCommittedAt(ProtoTime.toProto(version.committedAt()));
    }
    if (version.diffBase() != null) {
      r.setDiffBase(ProtoTime.toProto(version.diffBase()));
    }
    return r.build();
  }

  /**
   * @throws IllegalStateException for a record without a status (not written by a control plane)
   */
  static Version version(VersionRecord r) {
    Version.Status status =
        switch (r.getStatus()) {
          case PENDING -> Version.Status.PENDING;
          case COMMITTED -> Version.Status.COMMITTED;
          case FAILED -> Version.Status.FAILED;
          default ->
              throw new IllegalStateException(
                  "version "
                      + ProtoTime.toInstant(r.getVersion())
                      + " in the catalog has no status; restore the catalog file or remove it");
        };
    List<Version.AppProgress> apps = new ArrayList<>();
    for (AppVersionState a : r.getAppsList()) {
      apps.add(
          new Version.AppProgress(
              a.getApp(), a.getSealed(), sealedFiles(a.getFilesList()), a.getFailure()));
    }
    return new Version(
        ProtoTime.toInstant(r.getVersion()),
        status,
        apps,
        r.getFailure(),
        r.hasCommittedAt() ? ProtoTime.toInstant(r.getCommittedAt()) : null,
        r.hasDiffBase() ? ProtoTime.toInstant(r.getDiffBase()) : null);
  }

  static List<SealedFile> sealedFiles(List<WrittenFile> files) {
    List<SealedFile> result = new ArrayList<>();
    for (WrittenFile f : files) {
      result.add(new SealedFile(f.getState(), f.getPath(), f.getRows()));
    }
    return result;
  }

  // ---------------------------------------------------------------- apps

  /**
   * Checks what an app registers, whatever sent it: the app's name and each state's name first
   * (they become paths), state names unique, then each state's schema.
   *
   * @throws ControlPlaneException INVALID_ARGUMENT naming the first thing that is wrong
   */
  static Registration registration(Register register) {
    String app =
        ControlPlaneException.asInvalid(() -> Names.requireValid(register.getApp(), "app"));
    Set<String> names = new HashSet<>();
    List<StateDescriptor> states = new ArrayList<>();
    for (StateInfo s : register.getStatesList()) {
      ControlPlaneException.asInvalid(() -> Names.requireValidState(s.getName()));
      if (!names.add(s.getName())) {
        throw ControlPlaneException.invalid(
            "app " + app + " registers state '" + s.getName() + "' twice; state names are unique");
      }
      try {
        states.add(StateInfos.fromProto(s));
      } catch (IllegalArgumentException e) {
        throw ControlPlaneException.invalid(
            "state " + app + "." + s.getName() + " has a bad schema: " + e.getMessage());
      }
    }
    return new Registration(app, states, register.getInstance());
  }

  static AppSummary summary(AppState.Snapshot app) {
    AppSummary.Builder summary =
        AppSummary.newBuilder()
            .setName(app.name())
            .setConnected(app.connected())
            .setStateCount(app.states().size());
    if (app.watermark() != null) {
      summary.setWatermark(ProtoTime.toProto(app.watermark()));
    }
    if (app.historyFrom() != null) {
      summary.setHistoryFrom(ProtoTime.toProto(app.historyFrom()));
    }
    if (app.finishedAt() != null) {
      summary.setFinishedAt(ProtoTime.toProto(app.finishedAt()));
    }
    return summary.build();
  }

  static AppInfo appInfo(AppState.Snapshot app) {
    AppInfo.Builder info = AppInfo.newBuilder().setSummary(summary(app));
    for (StateDescriptor state : app.states()) {
      info.addStates(StateInfos.toProto(state));
    }
    return info.build();
  }

  /**
   * What the catalog keeps of an app: its name, states and when it finished. Connection, watermark
   * and history horizon are live facts; after a restart the app reports them again.
   */
  static AppInfo persistedApp(AppState app) {
    return appInfo(
        new AppState.Snapshot(app.name(), false, null, null, app.finishedAt(), app.states()));
  }

  /** An app of the catalog, disconnected. */
  static AppState app(AppInfo info) {
    List<StateDescriptor> states = new ArrayList<>();
    for (StateInfo s : info.getStatesList()) {
      states.add(StateInfos.fromProto(s));
    }
    AppSummary summary = info.getSummary();
    return new AppState(
        summary.getName(),
        states,
        summary.hasFinishedAt() ? ProtoTime.toInstant(summary.getFinishedAt()) : null);
  }
}

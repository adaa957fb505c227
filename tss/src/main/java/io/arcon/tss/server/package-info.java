/**
 * The TSS control plane ({@link io.arcon.tss.server.ControlPlaneServer}): a gRPC service (see
 * {@code tss.proto}) that apps connect to through the agent ({@code TssAgent}) and clients through
 * the client ({@code TssClient}); the control plane depends on neither.
 *
 * <h2>Parts</h2>
 *
 * {@link io.arcon.tss.server.ControlPlane} dispatches what apps report and clients ask to the part
 * that owns each job:
 *
 * <ul>
 *   <li>the catalog: {@link io.arcon.tss.server.AppRegistry} of {@link
 *       io.arcon.tss.server.AppState}s and {@link io.arcon.tss.server.TssCatalog} of {@link
 *       io.arcon.tss.server.TssState}s (a {@link io.arcon.tss.server.TssSpec} and its {@link
 *       io.arcon.tss.server.Version}s), persisted by {@link io.arcon.tss.server.CatalogStore};
 *   <li>{@link io.arcon.tss.server.VersionScheduler}: which versions exist and which are due, over
 *       the AT/EVERY/UNTIL times of a {@link io.arcon.tss.server.VersionSchedule};
 *   <li>{@link io.arcon.tss.server.CommitCoordinator}: commits on one thread, the file work done by
 *       {@link io.arcon.tss.server.VersionCommitter};
 *   <li>{@link io.arcon.tss.server.DefinitionValidator}: the checks of a CREATE TSS;
 *   <li>{@link io.arcon.tss.server.CatalogTables}: SHOW APPS, DESCRIBE APP, SHOW TSS, DESCRIBE TSS.
 * </ul>
 *
 * These work on plain objects; protobuf is only at the edges, converted by {@link
 * io.arcon.tss.server.WireForms}: the catalog files ({@link io.arcon.tss.server.CatalogStore}), the
 * lake's JSON files ({@link io.arcon.tss.server.VersionCommitter}) and the gRPC service ({@link
 * io.arcon.tss.server.TssControlService}, {@link io.arcon.tss.server.AppSession}).
 *
 * <h2>Home directory</h2>
 *
 * {@code <home>/catalog/tss/<name>.json} (definition and open versions, rewritten atomically: temp
 * file, fsync, atomic rename, directory fsync), {@code <home>/catalog/tss/<name>.versions}
 * (append-only log of committed/failed versions) and {@code <home>/catalog/apps/<app>.json} (the
 * last state catalog each app registered). Everything is reloaded at start; a version that every
 * app had sealed but that was not committed before a crash is committed after the restart, once the
 * server listens. {@code <home>/control-plane.lock} ({@link io.arcon.tss.server.HomeLock}) keeps
 * one control plane per home, across processes. {@link io.arcon.tss.server.EmbeddedControlPlane}
 * starts one inside a pipeline's JVM when none listens at its endpoint.
 *
 * <h2>Scheduling</h2>
 *
 * Versions are at AT, AT + k*EVERY while &lt;= UNTIL, unbounded without UNTIL. They are added to
 * the catalog lazily: the next version appears once some app of the TSS passed the previous one,
 * with at most 1000 open at a time. An app gets the assignment for version T once its watermark is
 * &gt; T; the version commits when every app of the TSS sealed it, strictly in time order per TSS.
 * An app whose input ended (Finished, at E) has every version due; its TSS end at their first
 * version &gt;= E, and the app gets Drained once it sealed all of them.
 *
 * <h2>Lake</h2>
 *
 * See {@link io.arcon.tss.lake.LakeLayout}. Agents write full rows to {@code
 * version=<T>/<app>/<state>/part-0.parquet}. At commit, DIFF moves those full rows to the hidden
 * {@code <tss>/_full/version=<T>/} staging area (only the last committed version's are kept) and
 * writes the changes against the previous committed version in their place (the first version:
 * every row as {@code insert}); TRANSFORM runs DuckDB over the full rows into {@code
 * version=<T>/transform/part-0.parquet}; {@code _COMMITTED} is written last, via a rename. {@code
 * <tss>/_definition.json} is written at CREATE. Every Parquet file carries {@code arcon.app},
 * {@code arcon.state}, {@code arcon.version} and {@code arcon.consistency} ({@code exact} or {@code
 * watermark_cut}) in its footer ({@link io.arcon.tss.write.OutputMetadata}); a TRANSFORM result is
 * {@code exact} only if every state it read is. DROP TSS removes the catalog entry and the whole
 * {@code <lake>/<tss>} directory (after any commit in flight), and sends Cancelled to the apps with
 * assignments of it outstanding: they skip what they have not extracted yet, and what they wrote is
 * removed as each reports; until the last has, the name is reserved ({@link DroppedExtractions}). A
 * CREATE whose lake directory already holds files the control plane does not know is refused rather
 * than adopting them. DROP APP forgets an app (its {@code catalog/apps} file) that is not connected
 * and whose state no TSS extracts; the lake is untouched.
 *
 * <h2>Security</h2>
 *
 * Loopback by default; a non-loopback bind needs a token, which every call then carries as {@code
 * authorization: Bearer <token>}. Every name that reaches a path is re-checked here with {@link
 * io.arcon.tss.model.Names} ({@code [A-Za-z_][A-Za-z0-9_]*}, state names optionally {@code
 * transform.stateId}), whatever the client or app sent.
 */
package io.arcon.tss.server;

package io.arcon.runner.webui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arcon.runner.tss.TssSettings;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.client.TssClientException;
import io.arcon.tss.lang.StatementResult;
import io.arcon.tss.proto.AppSummary;
import io.arcon.tss.wire.ProtoTime;
import io.grpc.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The JSON of {@code /api/jobs/<id>/tss}: what the job's TSS control plane says of its apps (with
 * their watermarks) and of every TSS (committed and pending versions, and why a pending one waits).
 * An unreachable control plane is an answer too ({@code reachable: false} with the reason).
 */
final class TssView implements AutoCloseable {
  /** How long a page waits for the control plane before it shows it as not answering. */
  static final long ANSWER_TIMEOUT_MILLIS = 5_000;

  /**
   * Committed versions listed per TSS (the newest); a periodic TSS accumulates many. Versions not
   * yet committed are all listed: they are what a reader wants explained.
   */
  static final int COMMITTED_VERSIONS_SHOWN = 20;

  private final TssSettings settings;
  private final ExecutorService queries;
  private TssClient client; // guarded by this
  private CompletableFuture<ObjectNode> inFlight; // guarded by this
  private boolean closed; // guarded by this

  TssView(TssSettings settings, ExecutorService queries) {
    this.settings = settings;
    this.queries = queries;
  }

  /**
   * Asks the control plane now; concurrent callers share one question, so many open pages do not
   * multiply the calls.
   */
  ObjectNode query() {
    CompletableFuture<ObjectNode> answer;
    synchronized (this) {
      answer = inFlight;
      if (answer == null) {
        CompletableFuture<ObjectNode> asked = CompletableFuture.supplyAsync(this::ask, queries);
        inFlight = asked;
        asked.whenComplete(
            (result, error) -> {
              synchronized (this) {
                if (inFlight == asked) {
                  inFlight = null;
                }
              }
            });
        answer = asked;
      }
    }
    try {
      return answer.get(ANSWER_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return failed(
          false,
          "the TSS control plane at "
              + settings.endpoint()
              + " did not answer within "
              + ANSWER_TIMEOUT_MILLIS / 1000
              + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return failed(false, "interrupted while asking the control plane");
    } catch (ExecutionException e) {
      return failed(false, "asking the control plane failed: " + e.getCause());
    }
  }

  private ObjectNode ask() {
    ObjectNode root = header();
    try {
      TssClient tss = client();
      List<AppSummary> apps = tss.showApps();
      StatementResult all = tss.showTss();
      root.put("reachable", true);
      root.putNull("error");
      ArrayNode appsNode = root.putArray("apps");
      long now = System.currentTimeMillis();
      for (AppSummary app : apps) {
        app(appsNode.addObject(), app, now);
      }
      ArrayNode tssNode = root.putArray("tss");
      Table table = new Table(all);
      for (List<String> row : all.rows()) {
        ObjectNode one = tssNode.addObject();
        String name = table.cell(row, "tss");
        one.put("name", name);
        one.put("states", table.cell(row, "states"));
        one.put("at", table.cell(row, "at"));
        one.put("every", table.cell(row, "every"));
        one.put("until", table.cell(row, "until"));
        one.put("diff", table.cell(row, "diff"));
        one.put("transform", table.cell(row, "transform"));
        one.put("committed", table.cell(row, "committed"));
        one.put("pending", table.cell(row, "pending"));
        one.put("failed", table.cell(row, "failed"));
        describe(one, tss, name);
      }
    } catch (TssClientException e) {
      boolean reachable =
          e.code() != Status.Code.UNAVAILABLE && e.code() != Status.Code.DEADLINE_EXCEEDED;
      return failed(reachable, e.getMessage());
    }
    return root;
  }

  private static void app(ObjectNode node, AppSummary app, long nowMillis) {
    node.put("name", app.getName());
    node.put("connected", app.getConnected());
    if (app.hasWatermark()) {
      Instant watermark = ProtoTime.toInstant(app.getWatermark());
      node.put("watermark", watermark.toString());
      node.put("watermarkLagMillis", nowMillis - watermark.toEpochMilli());
    } else {
      node.putNull("watermark");
      node.putNull("watermarkLagMillis");
    }
    node.put(
        "historyFrom",
        app.hasHistoryFrom() ? ProtoTime.toInstant(app.getHistoryFrom()).toString() : null);
    node.put(
        "finishedAt",
        app.hasFinishedAt() ? ProtoTime.toInstant(app.getFinishedAt()).toString() : null);
    node.put("states", app.getStateCount());
  }

  /** The versions of one TSS; the control plane's {@code detail} says why a version waits. */
  private void describe(ObjectNode node, TssClient tss, String name) {
    StatementResult described;
    try {
      described = tss.describeTss(name);
    } catch (TssClientException e) {
      if (e.code() == Status.Code.UNAVAILABLE) {
        throw e;
      }
      // Dropped since SHOW TSS, say: the others are still worth showing.
      node.put("error", e.getMessage());
      node.putArray("versions");
      return;
    }
    node.putNull("error");
    node.put("statement", described.message());
    Table table = new Table(described);
    List<List<String>> committed = new ArrayList<>();
    List<List<String>> shown = new ArrayList<>();
    for (List<String> row : described.rows()) {
      if (table.cell(row, "status").equals("committed")) {
        committed.add(row);
      }
    }
    int firstCommittedShown = Math.max(0, committed.size() - COMMITTED_VERSIONS_SHOWN);
    int committedSeen = 0;
    for (List<String> row : described.rows()) {
      if (table.cell(row, "status").equals("committed") && committedSeen++ < firstCommittedShown) {
        continue;
      }
      shown.add(row);
    }
    node.put("versionsTotal", described.rows().size());
    node.put("committedHidden", firstCommittedShown);
    ArrayNode versions = node.putArray("versions");
    for (List<String> row : shown) {
      ObjectNode version = versions.addObject();
      version.put("version", table.cell(row, "version"));
      version.put("status", table.cell(row, "status"));
      version.put("detail", table.cell(row, "detail"));
      version.put("path", table.cell(row, "path"));
    }
  }

  /** A statement's result table, read by column name. */
  private record Table(List<String> columns) {
    Table(StatementResult result) {
      this(result.columns());
    }

    String cell(List<String> row, String column) {
      int i = columns.indexOf(column);
      return i >= 0 && i < row.size() ? row.get(i) : "";
    }
  }

  private ObjectNode header() {
    ObjectNode root = JobJson.MAPPER.createObjectNode();
    root.put("app", settings.app());
    root.put("endpoint", settings.endpoint());
    root.put("askedAt", Instant.now().toString());
    return root;
  }

  private ObjectNode failed(boolean reachable, String reason) {
    ObjectNode root = header();
    root.put("reachable", reachable);
    root.put("error", reason);
    root.putArray("apps");
    root.putArray("tss");
    return root;
  }

  private synchronized TssClient client() {
    if (closed) {
      throw new TssClientException(
          "the web UI no longer shows this job", Status.Code.UNAVAILABLE, null);
    }
    if (client == null) {
      client = TssClient.connect(settings.host(), settings.port(), settings.token());
    }
    return client;
  }

  /** Closes the connection in the background (it may wait for a call in flight). */
  @Override
  public synchronized void close() {
    closed = true;
    if (client != null) {
      TssClient open = client;
      client = null;
      queries.execute(open::close);
    }
  }
}

package io.arcon.tss.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.agent.TssAgent;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.client.TssClientException;
import io.arcon.tss.lang.TssParser;
import io.arcon.tss.lang.TssSyntaxException;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.proto.AppMessage;
import io.arcon.tss.proto.ControlMessage;
import io.arcon.tss.proto.Register;
import io.arcon.tss.proto.StateInfo;
import io.arcon.tss.proto.TssControlGrpc;
import io.arcon.tss.proto.TypeSpec;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControlPlaneRefusalsTest {
  private static final String AT = " AT '2026-12-02 13:00:00'";

  @TempDir Path home;
  private ControlPlaneServer server;
  private TssAgent agent;
  private TssClient client;

  @BeforeEach
  void start() throws InterruptedException {
    server = ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", 0, null));
    SyntheticApp app =
        new SyntheticApp().withCounter("clicks").withCounter("user_clicks", FieldType.INT64);
    agent =
        TssAgent.builder("clicks_app", app)
            .endpoint("127.0.0.1", server.port())
            .backoff(Duration.ofMillis(50), Duration.ofMillis(500))
            .start();
    assertTrue(agent.awaitRegistered(TestSupport.PATIENCE), "agent did not register");
    client = TssClient.connect("127.0.0.1", server.port(), null);
  }

  @AfterEach
  void stop() {
    client.close();
    agent.close();
    server.close();
  }

  private TssClientException refused(String statement) {
    return assertThrows(TssClientException.class, () -> client.execute(statement));
  }

  @Test
  void unknownAppIsRefusedNamingTheRegisteredApps() {
    TssClientException e = refused("CREATE TSS t AS EXTRACT nope.clicks" + AT + ";");
    assertEquals(Status.Code.NOT_FOUND, e.code());
    assertEquals("unknown app 'nope'; registered apps: clicks_app", e.getMessage());
  }

  @Test
  void unknownStateIsRefusedListingTheValidOnes() {
    TssClientException e = refused("CREATE TSS t AS EXTRACT clicks_app.steps" + AT + ";");
    assertEquals(Status.Code.NOT_FOUND, e.code());
    assertEquals(
        "app clicks_app has no state 'steps'; its states are: clicks, user_clicks", e.getMessage());
  }

  @Test
  void keyLiteralMustFitTheKeyType() {
    TssClientException e =
        refused("CREATE TSS t AS EXTRACT clicks_app.user_clicks ON KEY 'abc'" + AT + ";");
    assertEquals(Status.Code.INVALID_ARGUMENT, e.code());
    assertEquals(
        "ON KEY does not fit state clicks_app.user_clicks (key type INT64): key 'abc' is not a"
            + " valid INT64 (give an integer such as '42')",
        e.getMessage());
    // The same literal is fine for a STRING key, and a number is fine for INT64.
    client.execute("CREATE TSS t1 AS EXTRACT clicks_app.clicks ON KEY 'abc'" + AT + ";");
    client.execute("CREATE TSS t2 AS EXTRACT clicks_app.user_clicks ON KEY '42'" + AT + ";");
  }

  @Test
  void duplicateTssNameIsRefused() {
    client.execute("CREATE TSS t AS EXTRACT clicks_app.clicks" + AT + ";");
    TssClientException e = refused("CREATE TSS t AS EXTRACT clicks_app.clicks" + AT + ";");
    assertEquals(Status.Code.ALREADY_EXISTS, e.code());
    assertTrue(e.getMessage().startsWith("TSS t already exists"), e.getMessage());
  }

  @Test
  void transformThatReadsAnythingButTheVersionIsRefused() throws Exception {
    Path secret = Files.writeString(home.resolve("secret.csv"), "password\nhunter2\n");
    for (String sql :
        new String[] {
          "SELECT * FROM read_csv(''" + secret + "'')",
          "SELECT * FROM read_text(''/etc/passwd'')",
          "SELECT c.key FROM clicks_app.clicks c, read_parquet(''"
              + home
              + "/lake/*/*.parquet'') p",
          "SELECT * FROM nope.clicks"
        }) {
      TssClientException e =
          refused("CREATE TSS t AS EXTRACT clicks_app.clicks" + AT + " TRANSFORM '" + sql + "';");
      assertEquals(Status.Code.INVALID_ARGUMENT, e.code(), sql);
      assertTrue(e.getMessage().startsWith("TRANSFORM is refused: "), e.getMessage());
    }
    assertEquals(List.of(), client.showTss().rows(), "a refused CREATE left a TSS behind");
    client.execute(
        "CREATE TSS t AS EXTRACT clicks_app.clicks"
            + AT
            + " TRANSFORM 'SELECT key, value * 2 AS doubled FROM clicks_app.clicks';");
    assertEquals(1, client.showTss().rows().size());
  }

  @Test
  void leftoverFilesOfAnUnknownTssAreNotAdopted() throws Exception {
    Path leftover = home.resolve("lake/old/version=2026-12-02T12:00:00Z/_COMMITTED");
    Files.createDirectories(leftover.getParent());
    Files.writeString(leftover, "{}");
    TssClientException e = refused("CREATE TSS old AS EXTRACT clicks_app.clicks" + AT + ";");
    assertEquals(Status.Code.ALREADY_EXISTS, e.code());
    assertTrue(
        e.getMessage()
            .endsWith(
                "/lake/old already holds files, not from a TSS this control"
                    + " plane knows; move them away or pick another name"),
        e.getMessage());
  }

  @Test
  void syntaxErrorsComeBackWithLineAndColumn() {
    TssClientException e = refused("CREATE TSS t AS EXTRACT clicks_app.clicks\nFROM x;");
    assertEquals(Status.Code.INVALID_ARGUMENT, e.code());
    assertTrue(e.getMessage().startsWith("line 2:1: "), e.getMessage());
  }

  @Test
  void namesWithSlashOrDotDotAreRefusedByTheParser() {
    for (String statement :
        new String[] {
          "CREATE TSS a/b AS EXTRACT clicks_app.clicks" + AT + ";",
          "CREATE TSS t AS EXTRACT clicks_app/x.clicks" + AT + ";",
          "CREATE TSS t AS EXTRACT clicks_app.../clicks" + AT + ";",
          "DROP TSS ../lake;",
          "DESCRIBE TSS a/b;"
        }) {
      assertThrows(TssSyntaxException.class, () -> TssParser.parseOne(statement), statement);
      assertEquals(Status.Code.INVALID_ARGUMENT, refused(statement).code(), statement);
    }
  }

  @Test
  void namesWithSlashOrDotDotAreRefusedByTheServer() throws Exception {
    // Calls that bypass the parser: the server checks names itself.
    TssClientException drop = assertThrows(TssClientException.class, () -> client.dropTss("../x"));
    assertEquals(Status.Code.INVALID_ARGUMENT, drop.code());
    assertTrue(drop.getMessage().startsWith("invalid TSS name '../x'"), drop.getMessage());

    Status badApp = registerRaw("../evil", "clicks");
    assertEquals(Status.Code.INVALID_ARGUMENT, badApp.getCode());
    assertTrue(badApp.getDescription().startsWith("invalid app name '../evil'"));
    Status badState = registerRaw("evil", "a/../b");
    assertEquals(Status.Code.INVALID_ARGUMENT, badState.getCode());
    assertTrue(badState.getDescription().startsWith("invalid state name 'a/../b'"));

    try (Stream<Path> files = Files.walk(home)) {
      assertFalse(
          files.anyMatch(p -> p.getFileName().toString().contains("evil")),
          "a refused name reached the file system");
    }
    assertEquals(1, client.showApps().size());
  }

  /** Registers over a raw stream (no agent-side checks) and returns how the server ended it. */
  private Status registerRaw(String app, String state) throws Exception {
    ManagedChannel channel =
        NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
    try {
      CompletableFuture<Status> ended = new CompletableFuture<>();
      StreamObserver<AppMessage> requests =
          TssControlGrpc.newStub(channel)
              .connect(
                  new StreamObserver<>() {
                    @Override
                    public void onNext(ControlMessage value) {}

                    @Override
                    public void onError(Throwable t) {
                      ended.complete(Status.fromThrowable(t));
                    }

                    @Override
                    public void onCompleted() {
                      ended.complete(Status.OK);
                    }
                  });
      TypeSpec string =
          TypeSpec.newBuilder().setPrimitive(io.arcon.tss.proto.PrimitiveType.STRING).build();
      requests.onNext(
          AppMessage.newBuilder()
              .setRegister(
                  Register.newBuilder()
                      .setApp(app)
                      .addStates(
                          StateInfo.newBuilder()
                              .setName(state)
                              .setKeyType(string)
                              .setValueType(string)))
              .build());
      return ended.get(TestSupport.PATIENCE.toSeconds(), TimeUnit.SECONDS);
    } finally {
      channel.shutdownNow();
    }
  }

  @Test
  void nonLoopbackBindWithoutTokenIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ControlPlaneServer.start(
                    new ServerConfig(home.resolve("other"), null, "0.0.0.0", 0, null)));
    assertTrue(
        e.getMessage()
            .startsWith(
                "refusing to bind the TSS control plane to non-loopback address 0.0.0.0 without a"
                    + " token"),
        e.getMessage());
  }

  @Test
  void withATokenEveryCallMustCarryIt() throws InterruptedException {
    try (ControlPlaneServer secured =
        ControlPlaneServer.start(
            new ServerConfig(home.resolve("secured"), null, "127.0.0.1", 0, "s3cret"))) {
      try (TssClient anonymous = TssClient.connect("127.0.0.1", secured.port(), null);
          TssClient wrong = TssClient.connect("127.0.0.1", secured.port(), "guess");
          TssClient right = TssClient.connect("127.0.0.1", secured.port(), "s3cret")) {
        TssClientException none = assertThrows(TssClientException.class, anonymous::showApps);
        assertEquals(Status.Code.UNAUTHENTICATED, none.code());
        assertTrue(
            none.getMessage()
                .contains(
                    "this TSS control plane requires a token, sent as 'authorization: Bearer"
                        + " <token>': pass it with --token or $ARCON_TSS_TOKEN to the tss CLI,"
                        + " with --tssToken to a pipeline"),
            none.getMessage());
        TssClientException bad =
            assertThrows(TssClientException.class, () -> wrong.execute("SHOW TSS;"));
        assertEquals(Status.Code.UNAUTHENTICATED, bad.code());

        SyntheticApp app = new SyntheticApp().withCounter("clicks");
        try (TssAgent withToken =
                TssAgent.builder("secure_app", app)
                    .endpoint("127.0.0.1", secured.port())
                    .token("s3cret")
                    .start();
            TssAgent withoutToken =
                TssAgent.builder("sneaky_app", app)
                    .endpoint("127.0.0.1", secured.port())
                    .backoff(Duration.ofMillis(50), Duration.ofMillis(200))
                    .start()) {
          assertTrue(withToken.awaitRegistered(TestSupport.PATIENCE));
          TestSupport.await(
              "the agent without token to be refused",
              () -> withoutToken.lastError() != null,
              withoutToken::lastError);
          assertTrue(withoutToken.lastError().startsWith("UNAUTHENTICATED"));
          assertEquals(1, right.showApps().size());
          assertEquals("secure_app", right.showApps().get(0).getName());
        }
      }
    }
  }
}

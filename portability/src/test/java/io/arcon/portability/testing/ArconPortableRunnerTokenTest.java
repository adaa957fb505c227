package io.arcon.portability.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.portability.jobservice.ArconJobServer;
import io.arcon.portability.jobservice.JobServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.util.construction.PipelineOptionsTranslation;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ArconPortableRunner against a job server started with a token ({@code --jobServerToken}). */
class ArconPortableRunnerTokenTest {
  private static final String TOKEN = "portable-runner-token-42";

  @TempDir Path temp;
  private ArconJobServer server;

  @BeforeEach
  void start() {
    server =
        ArconJobServer.start(JobServerConfig.ephemeral().withToken(TOKEN).withStagingDir(temp));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Pipeline pipeline(String... extraArgs) {
    List<String> args =
        new ArrayList<>(
            List.of("--runner=ArconPortableRunner", "--jobEndpoint=" + server.jobEndpoint()));
    args.addAll(List.of(extraArgs));
    PipelineOptions options = PipelineOptionsFactory.fromArgs(args.toArray(String[]::new)).create();
    Pipeline p = Pipeline.create(options);
    PAssert.that(
            p.apply(Create.of(1, 2, 3))
                .apply(MapElements.into(TypeDescriptors.integers()).via((Integer i) -> i * 10)))
        .containsInAnyOrder(10, 20, 30);
    return p;
  }

  @Test
  void withTheTokenTheJobRuns() {
    Pipeline p = pipeline("--jobServerToken=" + TOKEN);

    PipelineResult result = p.run();

    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());
  }

  @Test
  void withoutATokenTheErrorSaysTheServerRequiresOneAndHowToPassIt() {
    // Only meaningful when the environment does not provide the token.
    org.junit.jupiter.api.Assumptions.assumeTrue(
        System.getenv(ArconPortableRunnerOptions.TOKEN_ENV) == null);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> pipeline().run());

    assertTrue(e.getMessage().contains("requires a token"), e.getMessage());
    assertTrue(e.getMessage().contains("--jobServerToken"), e.getMessage());
    assertTrue(e.getMessage().contains("ARCON_JOBSERVER_TOKEN"), e.getMessage());
    assertFalse(e.getMessage().contains("is a job server running there"), e.getMessage());
  }

  @Test
  void aWrongTokenIsReportedAsRefused() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> pipeline("--jobServerToken=not-it").run());

    assertTrue(e.getMessage().contains("refused the token"), e.getMessage());
  }

  /** The token stays on the client: it is not among the options the job server receives. */
  @Test
  void theTokenIsNotSentAsAPipelineOption() {
    PipelineOptions options = PipelineOptionsFactory.fromArgs("--jobServerToken=" + TOKEN).create();

    assertFalse(
        PipelineOptionsTranslation.toProto(options).toString().contains(TOKEN),
        "the token in the options sent");
  }
}

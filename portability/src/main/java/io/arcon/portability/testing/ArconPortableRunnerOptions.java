package io.arcon.portability.testing;

import com.fasterxml.jackson.annotation.JsonIgnore;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** Options of {@link ArconPortableRunner} beyond Beam's {@code PortablePipelineOptions}. */
public interface ArconPortableRunnerOptions extends PipelineOptions {

  /** The environment variable {@link #getJobServerToken} falls back to. */
  String TOKEN_ENV = "ARCON_JOBSERVER_TOKEN";

  /**
   * The token of a job server started with {@code --token}. Not part of the options the job server
   * receives ({@link JsonIgnore}): they are shown to anyone who may list the server's jobs.
   */
  @Description(
      "Token of a job server started with --token (bin/arcon-jobserver --token ...): sent as"
          + " 'authorization: Bearer <token>' on job and artifact calls. Default: the environment"
          + " variable ARCON_JOBSERVER_TOKEN.")
  @JsonIgnore
  String getJobServerToken();

  void setJobServerToken(String token);
}

package io.arcon.runner.webui;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** Options of the job's web UI and Prometheus endpoint; {@link WebUiSettings} checks them. */
public interface WebUiOptions extends PipelineOptions {

  @Description(
      "on: serve the web UI (job graph, live figures, TSS) and Prometheus /metrics while the job"
          + " runs (default for ArconRunner); off: serve nothing (default for TestArconRunner).")
  String getWebUi();

  void setWebUi(String onOrOff);

  @Description(
      "Port of the web UI and /metrics. When it is taken, the next free port is used; the address"
          + " is printed when the job starts. Jobs of one JVM share one server.")
  @Default.Integer(8081)
  Integer getWebUiPort();

  void setWebUiPort(Integer port);

  @Description(
      "Address the web UI listens on. Default: loopback only. Any other address requires"
          + " --webUiToken.")
  @Default.String("127.0.0.1")
  String getWebUiAddress();

  void setWebUiAddress(String address);

  @Description(
      "Shared secret the web UI and /metrics require (as 'Authorization: Bearer <token>' or"
          + " '?token=<token>'). Required when --webUiAddress is not a loopback address.")
  String getWebUiToken();

  void setWebUiToken(String token);
}

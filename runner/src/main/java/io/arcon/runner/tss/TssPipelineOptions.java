package io.arcon.runner.tss;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * How a pipeline meets TSS: whether it registers with the control plane, where that is, and which
 * transforms export their state exactly. Names as in DESIGN §6; {@link TssSettings} checks them.
 */
public interface TssPipelineOptions extends PipelineOptions {

  @Description(
      "on: register the pipeline with the TSS control plane as app --jobName, so its state can be"
          + " listed and extracted (default for ArconRunner); off: no TSS (default for"
          + " TestArconRunner).")
  String getTss();

  void setTss(String onOrOff);

  @Description(
      "host:port of the TSS control plane. When nothing listens there, the pipeline starts an"
          + " embedded control plane at that address (loopback unless --tssToken is given).")
  @Default.String("127.0.0.1:47470")
  String getTssEndpoint();

  void setTssEndpoint(String endpoint);

  @Description(
      "Home of an embedded control plane: its catalog of TSS definitions and versions, and the"
          + " lake of committed versions (DIR/lake). Default: ~/.arcon/tss.")
  String getTssHome();

  void setTssHome(String directory);

  @Description(
      "Shared secret sent to the control plane (and required by an embedded one started by this"
          + " pipeline). Needed when the control plane listens on an address other than loopback.")
  String getTssToken();

  void setTssToken(String token);

  @Description(
      "Comma-separated globs ('*' any characters including '/', '?' one) of stateful transforms"
          + " whose state is exported exactly, as if their DoFn had @RequiresTimeSortedInput: input"
          + " is processed in event-time order per key and every write is kept in a per-key"
          + " version chain for --stateHistory. Each glob must match a stateful ParDo; needs"
          + " --tss=on (refused with --tss=off, where it would have no effect).")
  String getTssExport();

  void setTssExport(String globs);

  @Description(
      "How far back (an ISO-8601 duration, e.g. PT1H, PT24H) before the watermark versions of the"
          + " pipeline's state can still be extracted; older history is pruned.")
  @Default.String("PT1H")
  String getStateHistory();

  void setStateHistory(String duration);
}

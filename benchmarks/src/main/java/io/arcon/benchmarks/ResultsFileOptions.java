package io.arcon.benchmarks;

import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** {@code --resultsFile}, shared by the benchmarks that write a report ({@link ResultsFile}). */
public interface ResultsFileOptions extends PipelineOptions {
  @Description(
      "File the report is written to (default: benchmarks/target/<the benchmark's name>.txt,"
          + " relative to the repository root or the benchmarks/ folder, whichever it is started"
          + " from)")
  String getResultsFile();

  void setResultsFile(String value);
}

package io.arcon.portability.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.model.pipeline.v1.MetricsApi;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.runners.core.metrics.MonitoringInfoEncodings;
import org.junit.jupiter.api.Test;

/** How the monitoring infos a harness sends with a finished bundle reach the job's metrics. */
class StageMetricsTest {

  private static MetricsApi.MonitoringInfo counter(String transformLabel, String namespace) {
    return MetricsApi.MonitoringInfo.newBuilder()
        .setUrn("beam:metric:user:sum_int64:v1")
        .setType("beam:metrics:sum_int64:v1")
        .putLabels(transformLabel, "split-words")
        .putLabels("NAMESPACE", namespace)
        .putLabels("NAME", "words")
        .setPayload(MonitoringInfoEncodings.encodeInt64Counter(7))
        .build();
  }

  private static List<MetricsApi.MonitoringInfo> reported(MetricsContainerStepMap metrics) {
    List<MetricsApi.MonitoringInfo> infos = new ArrayList<>();
    metrics.getMonitoringInfos().forEach(infos::add);
    return infos.stream().filter(i -> "words".equals(i.getLabelsMap().get("NAME"))).toList();
  }

  @Test
  void aJavaHarnessCounterIsKeptUnderItsPTransform() {
    MetricsContainerStepMap metrics = new MetricsContainerStepMap();

    ExecutableStageOperator.StageMetrics.report(metrics, List.of(counter("PTRANSFORM", "ns")));

    List<MetricsApi.MonitoringInfo> infos = reported(metrics);
    assertEquals(1, infos.size(), infos.toString());
    assertEquals("split-words", infos.get(0).getLabelsMap().get("PTRANSFORM"));
  }

  /**
   * The TypeScript SDK labels a user counter with {@code TRANSFORM} (not {@code PTRANSFORM}) and an
   * empty {@code NAMESPACE}: it is kept all the same, under its transform.
   */
  @Test
  void aTypeScriptCounterIsKeptUnderItsTransform() {
    MetricsContainerStepMap metrics = new MetricsContainerStepMap();

    ExecutableStageOperator.StageMetrics.report(metrics, List.of(counter("TRANSFORM", "")));

    List<MetricsApi.MonitoringInfo> infos = reported(metrics);
    assertEquals(1, infos.size(), infos.toString());
    assertEquals("split-words", infos.get(0).getLabelsMap().get("PTRANSFORM"));
    assertEquals(
        7L,
        MonitoringInfoEncodings.decodeInt64Counter(infos.get(0).getPayload()),
        infos.toString());
  }
}

package io.arcon.portability.jobservice;

import java.util.concurrent.ScheduledFuture;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Struct;

/**
 * A prepared job waiting for its Run: the submitted pipeline and options, the staging session its
 * artifacts go to, and the expiry that drops it if it is never run.
 */
record JobPreparation(
    String id,
    String jobName,
    RunnerApi.Pipeline pipeline,
    Struct options,
    String stagingToken,
    ScheduledFuture<?> expiry) {}

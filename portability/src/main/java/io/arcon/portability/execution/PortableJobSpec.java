package io.arcon.portability.execution;

import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Struct;

/**
 * A job to run: the portable pipeline as submitted, with every environment's dependencies already
 * resolved to staged files, and the pipeline options the client sent.
 *
 * @param jobId the Job Service's id for the job
 * @param jobName the client's name for the job
 * @param pipeline the pipeline proto (not yet fused)
 * @param pipelineOptions the options struct from {@code PrepareJobRequest}
 * @param retrievalToken the token SDK harnesses present to fetch the job's artifacts
 */
public record PortableJobSpec(
    String jobId,
    String jobName,
    RunnerApi.Pipeline pipeline,
    Struct pipelineOptions,
    String retrievalToken) {}

/**
 * The Beam Job Service of ArconRunner: non-Java SDKs (and Java's PortableRunner) submit portable
 * pipelines to it, and it runs them on the Arcon runtime.
 *
 * <p>{@link io.arcon.portability.jobservice.ArconJobServer} is the entry point, in-process or
 * behind the launcher {@code bin/arcon-jobserver}: the JobService (Prepare, Run, state and message
 * streams, Cancel, metrics, DescribePipelineOptions) on the job port, Beam's artifact staging and
 * retrieval on the artifact port. Jobs live in memory; a job's staged artifacts live in a directory
 * of their own and are deleted when the job ends.
 */
package io.arcon.portability.jobservice;

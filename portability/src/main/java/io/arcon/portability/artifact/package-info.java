/**
 * Artifact staging and retrieval for the Job Service: where the files a client stages for a job
 * live ({@link io.arcon.portability.artifact.StagingRoot}, one directory per staging session) and
 * the retrieval service SDK harnesses fetch them from ({@link
 * io.arcon.portability.artifact.StagedArtifactRetrievalService}). The staging protocol itself is
 * Beam's {@link org.apache.beam.runners.fnexecution.artifact.ArtifactStagingService}.
 */
package io.arcon.portability.artifact;

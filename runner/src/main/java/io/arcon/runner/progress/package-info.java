/**
 * Progress of a job on the console: its sources count what they read ({@link
 * io.arcon.runner.progress.SourceProgress}, per source instance, gathered per job by {@link
 * io.arcon.runner.progress.ReadProgress}), and {@link io.arcon.runner.progress.ProgressReporter}
 * prints a line every few seconds and one when the job ends ({@code --progress}).
 */
package io.arcon.runner.progress;

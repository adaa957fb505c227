/**
 * What a running job shows of itself: live figures per node instance ({@link
 * io.arcon.runtime.observe.NodeStats}) and per job ({@link io.arcon.runtime.observe.JobStats}),
 * written by the nodes and read by the web UI and the Prometheus endpoint.
 */
package io.arcon.runtime.observe;

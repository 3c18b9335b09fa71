/**
 * The public side of a task, what every DAP party shares: {@link
 * org.priodp.aggregator.task.TaskParameters} (DAP "Task Configuration" plus the DP settings), the
 * bearer {@link org.priodp.aggregator.task.AuthToken}, the opt-in DP-binding task extension, and
 * times as people type them. No JSON: task files are read by the cli module's {@code taskfile}
 * package.
 */
package org.priodp.aggregator.task;

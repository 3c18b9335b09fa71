/**
 * Tasks as this aggregator serves them: the task file (JSON) and its validation, the
 * {@link org.priodp.aggregator.task.TaskDefinition} (DAP-18 TaskConfiguration plus the DP
 * settings, the Collector key and the peer token), the opt-in DP-binding extension, and times as
 * people type them.
 */
package org.priodp.aggregator.task;

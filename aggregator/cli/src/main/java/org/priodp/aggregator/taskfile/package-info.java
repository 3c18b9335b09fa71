/**
 * Task files: the JSON form of an aggregator's tasks ({@link
 * org.priodp.aggregator.taskfile.TaskFile}), of a Client's public parameters ({@link
 * org.priodp.aggregator.taskfile.ClientTaskFile}) and of a Collector's task ({@link
 * org.priodp.aggregator.taskfile.CollectorTaskFile}), with errors that name the field (docs/DAP.md
 * "Task file").
 */
package org.priodp.aggregator.taskfile;

package org.priodp.aggregator.server;

import org.priodp.aggregator.core.TaskDefinition;

/**
 * One kind of task resource that {@link DapRouter} routes to after it has found the task and
 * checked the request's authentication (DAP-18 "HTTP Resources Reference"): the Helper's {@code
 * aggregation_jobs} and {@code aggregate_shares}, the Leader's {@code reports} and {@code
 * collection_jobs}.
 */
@FunctionalInterface
public interface TaskResource {
  /**
   * Answers one request for a resource of {@code task}; {@code resourceId} is the ID segment of a
   * resource URL (null for the creation URL) and {@code query} the raw query string (or null).
   * Refuses with {@link DapProblem} or {@link org.priodp.aggregator.core.DapRefusal}.
   */
  HttpReply handle(String method, TaskDefinition task, String resourceId, String query,
      String contentType, byte[] body);
}

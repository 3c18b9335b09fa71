package org.priodp.aggregator.server;

import org.priodp.aggregator.core.TaskDefinition;

/**
 * One kind of task resource that {@link DapRouter} routes to after it has found the task and
 * checked the request's authentication (DAP-18 "HTTP Resources Reference"): the Helper's {@code
 * aggregation_jobs} and {@code aggregate_shares}, the Leader's {@code reports} and {@code
 * collection_jobs}. A creation URL takes POST only ("Resource Creation"; the router answers
 * other methods with 405); a resource URL takes the methods its resource allows. Both refuse
 * with {@link DapProblem} or {@link org.priodp.aggregator.core.Refusal}.
 */
public interface TaskResource {
  /** Answers a POST on the creation URL {@code {base}tasks/{task-id}/{collection}}. */
  HttpReply create(TaskDefinition task, String contentType, byte[] body);

  /**
   * Answers one request on the resource URL whose ID segment is {@code resourceId}; {@code
   * query} is the raw query string (or null). Refuses with {@link DapProblem} or {@link
   * org.priodp.aggregator.core.Refusal}.
   */
  HttpReply handle(String method, TaskDefinition task, String resourceId, String query,
      String contentType, byte[] body);
}

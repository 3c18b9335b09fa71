package org.priodp.aggregator.server;

/**
 * Resources served beside the DAP ones under one path prefix, such as the interoperation test
 * API of draft-dcook-ppm-dap-interop-test-design ("Interoperation Test API": test-only endpoints
 * under {@code /internal/test/} on the aggregator's port). {@link DapRouter} hands every request
 * whose path starts with {@link #prefix()} to {@link #handle}, before any DAP route; an {@link
 * Aggregator} builds its mounted routes from its {@link TaskRegistry} ({@link
 * AggregatorConfig#mount}), so that they may add tasks. Implementations must be thread-safe and
 * must not throw for client input.
 */
public interface MountedRoutes {
  /** Returns the path prefix served, starting and ending with "/", e.g. {@code /internal/test/}. */
  String prefix();

  /**
   * Returns the low-cardinality route template of a path under the prefix, for metrics and logs
   * (e.g. the path itself for a known endpoint, the prefix for any other).
   */
  String routeOf(String path);

  /** Handles one request under the prefix; {@code contentType} is the header value or null. */
  HttpReply handle(String method, String path, String contentType, byte[] body);
}

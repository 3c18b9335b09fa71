/**
 * The HTTP layer: the DAP-18 resources on Vert.x ({@link org.priodp.aggregator.server.DapRouter}
 * dispatching to one route class per resource under each task's endpoint path, media types,
 * authentication, size limits), the mapping of domain refusals to RFC 9457 problem documents
 * ({@link org.priodp.aggregator.server.DapProblem}), TLS, health, readiness and Prometheus
 * metrics, and the one assembly ({@link org.priodp.aggregator.server.Aggregator}) that builds a
 * running aggregator from one {@link org.priodp.aggregator.server.AggregatorConfig}.
 */
package org.priodp.aggregator.server;

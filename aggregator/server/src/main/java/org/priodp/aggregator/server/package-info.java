/**
 * The HTTP layer: the DAP-18 resources on Vert.x (routes under each task's endpoint path,
 * media types, authentication, size limits), the mapping of domain refusals to RFC 9457 problem
 * documents, TLS, health, readiness and Prometheus metrics.
 */
package org.priodp.aggregator.server;

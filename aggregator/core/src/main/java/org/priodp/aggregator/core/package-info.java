/**
 * The domain rules of the aggregator, free of HTTP: what may be released for a batch, noised
 * exactly once, and the refusals ({@link org.priodp.aggregator.core.Refusal}, whose {@link
 * org.priodp.aggregator.core.ProblemType} is a DAP-18 error or a prio-dp problem type) of
 * requests the protocol rejects.
 */
package org.priodp.aggregator.core;

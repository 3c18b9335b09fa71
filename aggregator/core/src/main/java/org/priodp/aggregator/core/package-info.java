/**
 * The domain rules of the aggregator, free of HTTP: what may be released for a batch, noised
 * exactly once, and the DAP-18 refusals ({@link org.priodp.aggregator.core.Refusal}) of
 * requests the protocol rejects.
 */
package org.priodp.aggregator.core;

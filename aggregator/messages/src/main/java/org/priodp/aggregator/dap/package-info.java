/**
 * The DAP-18 messages as pure codecs (draft-ietf-ppm-dap-18, TLS presentation language): each
 * message is an immutable value with a validating constructor, {@code encode()} and a strict
 * {@code decode} that names the failing field. No I/O, no HTTP, no persistence.
 */
package org.priodp.aggregator.dap;

/**
 * The Leader's HTTP clients of the other DAP-18 parties ("Leader Initialization", "Obtaining
 * Aggregate Shares", "Asynchronous Request Handling"): implementations of the transport-free
 * interfaces of the core package over the JDK's {@code java.net.http.HttpClient}.
 */
package org.priodp.aggregator.peer;

/**
 * The Client and Collector roles of DAP-18 over HTTP: {@link
 * org.priodp.aggregator.client.DapClient} fetches both aggregators' HPKE configurations, shards
 * measurements with Prio3, seals the input shares and uploads reports to the Leader ("Uploading
 * Reports"); {@link org.priodp.aggregator.client.DapCollector} starts a collection job, polls it,
 * opens both aggregate shares and decodes the noised aggregate with its intervals ("Collecting
 * Results"). Both use the JDK's {@link java.net.http.HttpClient} and the project's DAP codecs.
 */
package org.priodp.aggregator.client;

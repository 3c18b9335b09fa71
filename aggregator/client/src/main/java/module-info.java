/**
 * Declares the DAP client module: the Client (uploads reports) and the Collector (collects and
 * decodes noised results) on the JDK's HTTP client.
 *
 * <p>Exports {@code org.priodp.aggregator.client}. The messages module and {@code java.net.http}
 * are required transitively: task parameters, HPKE configurations and {@code HttpClient} appear in
 * this module's API. It reads no server, datastore, JSON or logging module.
 */
module org.priodp.aggregator.client {
  requires transitive org.priodp.aggregator.messages;
  requires transitive java.net.http;

  exports org.priodp.aggregator.client;
}

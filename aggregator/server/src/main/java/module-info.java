/**
 * Declares the aggregator server: the DAP-18 resources over HTTP on Vert.x, problem documents,
 * TLS, metrics, and the Leader's HTTP client of the Helper.
 *
 * <p>Exports {@code org.priodp.aggregator.server} (the routes and the one assembly of a running
 * aggregator) and {@code org.priodp.aggregator.peer} (HttpHelperPeer). {@code
 * org.priodp.aggregator.server.internal} (the description of an exception's causes) is exported
 * only to the cli module, which words its errors the same way. Vert.x, Micrometer (automatic
 * modules {@code micrometer.core}, {@code micrometer.registry.prometheus}), Jackson and SLF4J
 * are read here; Jackson reads and writes JSON trees only, so no package is opened to it. Vert.x,
 * Micrometer's core and {@code java.net.http} are required transitively: TLS options, the meter
 * registry and the HTTP client appear in this module's API. The warnings suppressed are about the
 * automatic Micrometer modules and the qualified export to the cli module, which is compiled
 * later.
 */
@SuppressWarnings({"module", "requires-automatic", "requires-transitive-automatic"})
module org.priodp.aggregator.server {
  requires transitive org.priodp.aggregator.core;
  requires transitive io.vertx.core;
  requires transitive micrometer.core;
  requires micrometer.registry.prometheus;
  requires com.fasterxml.jackson.databind;
  requires transitive java.net.http;
  requires org.slf4j;
  requires org.bouncycastle.provider;

  exports org.priodp.aggregator.server;
  exports org.priodp.aggregator.peer;
  exports org.priodp.aggregator.server.internal to org.priodp.aggregator.cli;
}

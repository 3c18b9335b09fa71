/**
 * Declares the aggregator core: the DAP-18 Leader and Helper and the once-only noised release,
 * free of HTTP, JDBC and JSON.
 *
 * <p>Exports {@code org.priodp.aggregator.core}. The messages and datastore modules are required
 * transitively: their types (DAP messages, the datastore port) appear in this module's API. The
 * datastore module does not export its JDBC package to this module, so the core can only use the
 * port. SLF4J is the only third-party module it reads.
 */
module org.priodp.aggregator.core {
  requires transitive org.priodp.aggregator.messages;
  requires transitive org.priodp.aggregator.datastore;
  requires org.slf4j;

  exports org.priodp.aggregator.core;
}

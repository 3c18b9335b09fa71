/**
 * Declares the DAP message module: the DAP-18 codecs, HPKE and the public parameters of a task,
 * with no I/O.
 *
 * <p>Exports {@code org.priodp.aggregator.dap} (every message as an immutable value with its
 * encoding), {@code org.priodp.aggregator.hpke} (RFC 9180 base mode) and {@code
 * org.priodp.aggregator.task} (TaskParameters, AuthToken, DpBinding, TimeText). {@code
 * org.priodp.aggregator.dap.internal} (the TLS-syntax reader and writer, octet checks) is not
 * exported. The vdaf module is required transitively: Prio3 variants and DP strategies appear in
 * this module's API. Bouncy Castle (module {@code org.bouncycastle.provider}) and JNA (module
 * {@code com.sun.jna}, optional: OpenSSL's X25519) are used inside HPKE only and appear in no
 * public signature; the Amazon Corretto Crypto Provider is found by reflection when its jar is present
 * (benchmarks and tests).
 */
module org.priodp.aggregator.messages {
  requires transitive org.priodp.vdaf;
  requires org.bouncycastle.provider;
  requires static com.sun.jna;

  exports org.priodp.aggregator.dap;
  exports org.priodp.aggregator.hpke;
  exports org.priodp.aggregator.task;
}

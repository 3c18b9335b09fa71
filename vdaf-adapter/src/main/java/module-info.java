/**
 * Prio3 (VDAF draft-20) and the differential-privacy layer on its aggregate shares.
 *
 * <p>Exports {@code org.priodp.vdaf} (Prio3 and its variants), {@code org.priodp.vdaf.dp}
 * (sensitivity, DP strategies, noising, collector decoding) and {@code org.priodp.vdaf.local}
 * (local randomizers wired to Prio3 variants). {@code org.priodp.vdaf.internal} (FLP, circuits,
 * TurboSHAKE128, the test vectors' test-only circuits) is not exported. The field and noise
 * modules are required transitively: their types appear in this module's API (the noise
 * compression module's through {@code RequantizedHistogram}).
 */
module org.priodp.vdaf {
  requires transitive org.priodp.field;
  requires transitive org.priodp.noise;
  requires transitive org.priodp.noise.compress;

  exports org.priodp.vdaf;
  exports org.priodp.vdaf.dp;
  exports org.priodp.vdaf.local;
}

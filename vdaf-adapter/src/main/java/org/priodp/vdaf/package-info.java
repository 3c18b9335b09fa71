/**
 * Prio3 (VDAF draft-20, wire version 18): {@link org.priodp.vdaf.Prio3} shards, verifies,
 * aggregates and unshards; {@link org.priodp.vdaf.Prio3Variant} holds a variant's parameters
 * and everything derived from them (field, algorithm id, lengths, DAP-18 {@code
 * vdaf_configuration}, parsing from a name and textual parameters, its circuit, its
 * sensitivity, parsing one measurement from text); {@link org.priodp.vdaf.XofTurboShake128} is
 * the specification's XOF.
 *
 * <p>Nothing here adds noise: a variant states its {@link org.priodp.vdaf.dp.Sensitivity}, but
 * the DP layer on top of Prio3 is {@link org.priodp.vdaf.dp}, the client-side randomizers wired
 * to Prio3 variants are {@link
 * org.priodp.vdaf.local}. The FLP, circuits and TurboSHAKE128 live in the unexported {@code
 * org.priodp.vdaf.internal}.
 */
package org.priodp.vdaf;

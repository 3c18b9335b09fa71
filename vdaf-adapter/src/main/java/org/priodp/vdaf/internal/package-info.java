/**
 * Implementation of Prio3, not part of the API and not exported by the module: the FLP
 * (prove, query, decide), the validity circuits and their gadgets, TurboSHAKE128, and the
 * test-only circuits of the official vectors ({@link org.priodp.vdaf.internal.TestOnlyPrio3}).
 */
package org.priodp.vdaf.internal;

/**
 * The Prio3 prime fields (Field64, Field128): arithmetic, flat vectors, canonical encoding,
 * NTT and polynomials for the FLP, and the projection Z -> F_p with its signed lift.
 *
 * <p>Exports {@code org.priodp.field}; {@code org.priodp.field.internal} (radix-2 kernels, root
 * tables, byte helpers) is not exported.
 */
module org.priodp.field {
  exports org.priodp.field;
}

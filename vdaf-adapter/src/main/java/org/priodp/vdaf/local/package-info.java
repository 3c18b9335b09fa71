/**
 * Local randomizers wired to Prio3 variants: each client randomizes its measurement before
 * sharding (binary and k-ary randomized response, symmetric RAPPOR, randomized requantization,
 * from {@code org.priodp.noise}), and the collector debiases the unsharded aggregate. Each
 * report is epsilon-locally-private on its own, whatever the aggregators do.
 */
package org.priodp.vdaf.local;

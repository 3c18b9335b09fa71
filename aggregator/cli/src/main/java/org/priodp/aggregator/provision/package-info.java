/**
 * Provisioning: making the parts of a task that its parties must agree on or hold (task ID,
 * configuration, keys, tokens). {@link org.priodp.aggregator.provision.ProvisionedTask}
 * generates a new task and its parties' files ({@code task new}, and the demo in memory);
 * {@link org.priodp.aggregator.provision.LoopbackTask} provisions a self-contained
 * leader-selected batch for the load generator.
 */
package org.priodp.aggregator.provision;

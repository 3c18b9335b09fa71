/**
 * Provisioning: making the parts of a task that its parties must agree on or hold (task ID,
 * configuration, keys, tokens). {@link org.priodp.aggregator.provision.LoopbackTask} provisions a
 * self-contained task for runs on one machine (the demo and the load generator).
 */
package org.priodp.aggregator.provision;

/**
 * The {@code ./prio-dp} command line (picocli): one root that finds every subcommand, in this
 * module and in conformance, through {@link java.util.ServiceLoader}.
 */
package org.priodp.aggregator.cli;

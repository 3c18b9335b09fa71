package org.priodp.aggregator.cli;

import java.util.concurrent.Callable;

/**
 * A top-level command of {@code ./prio-dp}, found at startup through {@link
 * java.util.ServiceLoader}.
 *
 * <p>Implementations are picocli commands (annotated with {@code @Command}, whose name becomes
 * the subcommand name) with a public no-argument constructor, listed in {@code
 * META-INF/services/org.priodp.aggregator.cli.PrioDpSubcommand} of their module. The service
 * commands live in the aggregator module and the proving commands in the conformance module;
 * users see one command tree.
 */
public interface PrioDpSubcommand extends Callable<Integer> {}

/**
 * Declares the command-line module: the {@code prio-dp} root command with the service and library
 * commands, the demo, task provisioning and the JSON task files.
 *
 * <p>Exports {@code org.priodp.aggregator.cli} (the root command and the {@link
 * org.priodp.aggregator.cli.PrioDpSubcommand} service other modules provide commands through),
 * {@code org.priodp.aggregator.taskfile} (reading and writing task files) and {@code
 * org.priodp.aggregator.provision} (generating a task's parts); {@code
 * org.priodp.aggregator.demo} is not exported. The server, client, picocli and Jackson modules
 * are required transitively: their types appear in the exported API (the root's {@code
 * CommandLine}, task files as Jackson trees, the parts of a task). The root finds its commands with {@link
 * java.util.ServiceLoader}: this module {@code uses} the service and {@code provides} its own
 * commands (as META-INF/services does on the class path). picocli sets the commands' fields by
 * reflection, so their packages are open to {@code info.picocli}; {@code
 * org.priodp.aggregator.cli} is open to everyone because logback reads its configuration,
 * {@code org/priodp/aggregator/cli/logback.xml}, through a class loader. The JDBC drivers are not
 * required: {@code java.sql.DriverManager} finds them at run time. {@code jdk.unsupported} gives
 * {@code serve} its SIGTERM and SIGINT handler ({@code sun.misc.Signal}); {@code jdk.httpserver}
 * serves the interop test API of {@code interop-client} and {@code interop-collector}.
 */
module org.priodp.aggregator.cli {
  requires transitive org.priodp.aggregator.server;
  requires transitive org.priodp.aggregator.client;
  requires transitive info.picocli;
  requires transitive com.fasterxml.jackson.databind;
  requires org.slf4j;
  requires org.bouncycastle.provider;
  requires ch.qos.logback.classic;
  requires ch.qos.logback.core;
  requires jdk.unsupported;
  requires jdk.httpserver;

  exports org.priodp.aggregator.cli;
  exports org.priodp.aggregator.provision;
  exports org.priodp.aggregator.taskfile;

  opens org.priodp.aggregator.cli;
  opens org.priodp.aggregator.demo to info.picocli;

  uses org.priodp.aggregator.cli.PrioDpSubcommand;

  provides org.priodp.aggregator.cli.PrioDpSubcommand with
      org.priodp.aggregator.cli.AccuracyCommand,
      org.priodp.aggregator.cli.BudgetCommand,
      org.priodp.aggregator.cli.CollectCommand,
      org.priodp.aggregator.cli.CollectionJobsCommand,
      org.priodp.aggregator.cli.DqlCommand,
      org.priodp.aggregator.cli.InteropClientCommand,
      org.priodp.aggregator.cli.InteropCollectorCommand,
      org.priodp.aggregator.cli.JobsCommand,
      org.priodp.aggregator.cli.KeysCommand,
      org.priodp.aggregator.cli.NoiseShareCommand,
      org.priodp.aggregator.cli.PprCommand,
      org.priodp.aggregator.cli.RequantizeCommand,
      org.priodp.aggregator.cli.SampleCommand,
      org.priodp.aggregator.cli.SensitivityCommand,
      org.priodp.aggregator.cli.ServeCommand,
      org.priodp.aggregator.cli.StatusCommand,
      org.priodp.aggregator.cli.TaskCommand,
      org.priodp.aggregator.cli.UnshardCommand,
      org.priodp.aggregator.cli.UploadCommand,
      org.priodp.aggregator.cli.VerifyKeysCommand,
      org.priodp.aggregator.demo.DemoCommand;
}

package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The root of the {@code ./prio-dp} command line: one {@code --help} for every command. */
@Command(
    name = "prio-dp",
    mixinStandardHelpOptions = true,
    versionProvider = PrioDp.Version.class,
    description = "Differential privacy for Prio3/DAP aggregation.",
    synopsisSubcommandLabel = "COMMAND",
    commandListHeading = "%nCommands:%n")
public final class PrioDp implements Runnable {

  @Spec CommandSpec spec;

  /** Without a command: print the usage and fail, so scripts notice. */
  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing required command");
  }

  /** Builds the command line with every subcommand found on the class path. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new PrioDp());
    List<PrioDpSubcommand> commands = new ArrayList<>();
    ServiceLoader.load(PrioDpSubcommand.class).forEach(commands::add);
    commands.sort(Comparator.comparing(c -> new CommandLine(c).getCommandName()));
    for (PrioDpSubcommand c : commands) {
      cl.addSubcommand(c);
    }
    cl.setParameterExceptionHandler(
        (ex, args) -> {
          // One line that names the problem, then the usage (picocli's default handler drops the
          // usage when it has a suggestion).
          CommandLine c = ex.getCommandLine();
          PrintWriter err = c.getErr();
          err.println(ex.getMessage());
          CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
          c.usage(err);
          err.flush();
          return c.getCommandSpec().exitCodeOnInvalidInput();
        });
    cl.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          // Errors from bad input are reported as one line; anything else is a bug with a trace.
          PrintWriter err = commandLine.getErr();
          if (ex instanceof IllegalArgumentException || ex instanceof IOException) {
            err.println(commandLine.getCommandName() + ": " + ex.getMessage());
            err.flush();
            return 2;
          }
          throw ex;
        });
    return cl;
  }

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** Reads the version that the build wrote into the jar. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties p = new Properties();
      try (InputStream in = PrioDp.class.getResourceAsStream("version.properties")) {
        if (in != null) {
          p.load(in);
        }
      }
      return new String[] {"prio-dp " + p.getProperty("version", "unknown")};
    }
  }
}

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
import org.priodp.aggregator.service.internal.Causes;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
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

  @Option(names = "--verbose", scope = ScopeType.INHERIT,
      description = "On an error, print the stack trace too; log prio-dp at DEBUG.")
  boolean verbose;

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
          // Errors from bad input (exit 2) and from the environment (exit 1) are one line naming
          // the cause, walked down to the root reason; --verbose adds the stack trace. Anything
          // else is a bug and keeps its trace.
          PrintWriter err = commandLine.getErr();
          int code;
          if (ex instanceof IllegalArgumentException || ex instanceof IOException
              || ex instanceof java.io.UncheckedIOException) {
            code = 2;
          } else if (ex instanceof CliIo.Failure) {
            code = 1;
          } else {
            throw ex;
          }
          if (isVerbose(commandLine)) {
            ex.printStackTrace(err);
          }
          err.println(commandLine.getCommandName() + ": " + Causes.describe(ex));
          err.flush();
          return code;
        });
    return cl;
  }

  /** Returns true if {@code --verbose} was given anywhere on the command line of {@code cl}. */
  static boolean isVerbose(CommandLine cl) {
    CommandLine root = cl;
    while (root.getParent() != null) {
      root = root.getParent();
    }
    for (ParseResult r = root.getParseResult(); r != null; r = r.subcommand()) {
      if (r.hasMatchedOption("--verbose")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The logging configuration of the command line, a class-path resource. It lives inside this
   * package rather than at the jar's root, so a project that links prio-dp as a library keeps
   * its own logging setup.
   */
  public static final String LOGGING_CONFIGURATION = "org/priodp/aggregator/cli/logback.xml";

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    if (System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile", LOGGING_CONFIGURATION);
    }
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

package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.priodp.aggregator.server.internal.Causes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** The root of the {@code ./prio-dp} command line: one {@code --help} for every command. */
@Command(
    name = "prio-dp",
    mixinStandardHelpOptions = true,
    versionProvider = PrioDp.Version.class,
    description = "Differential privacy for Prio3/DAP aggregation.",
    synopsisSubcommandLabel = "COMMAND",
    footer = {
      "%nSee './prio-dp help COMMAND' or './prio-dp COMMAND --help' for a command's options and an"
          + " example.",
      "%nExit codes: 0 ok, 1 the environment failed (a store or port that does not answer, a failed"
          + " check of vectors or benchmarks), 2 bad usage or input, 3 a partial"
          + " result (a ppr encode that hit its --cap; an upload the Leader refused in part)."
    })
public final class PrioDp implements Runnable {

  @Spec CommandSpec spec;

  @Option(names = "--verbose", scope = ScopeType.INHERIT,
      description = "On an error, print the stack trace too; log prio-dp at DEBUG.")
  boolean verbose;

  /** Without a command: fail with a usage error, so scripts notice. */
  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing required command");
  }

  /** Builds the command line with every subcommand found on the class path. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new PrioDp());
    Map<String, Object> commands = new TreeMap<>();
    ServiceLoader.load(PrioDpSubcommand.class)
        .forEach(c -> commands.put(c.getClass().getAnnotation(Command.class).name(), c));
    commands.put("help", new CommandLine.HelpCommand());
    commands.forEach(cl::addSubcommand);
    UsageMessageSpec help = cl.getSubcommands().get("help").getCommandSpec().usageMessage();
    help.header(new String[0]);
    help.synopsisHeading("Usage: ");
    help.description("Shows the help of a command, the same as COMMAND --help.");
    help.footer("%nExample:", "  prio-dp help sample");
    configureHelp(cl);
    cl.setUsageHelpWidth(USAGE_WIDTH);
    cl.setUsageHelpLongOptionsMaxWidth(LONG_OPTIONS_WIDTH);
    cl.setParameterExceptionHandler(
        (ex, args) -> {
          // One line that names the problem (and picocli's suggestion, if it has one), then where
          // to find the help: not the whole help, which buries the problem.
          CommandLine c = ex.getCommandLine();
          PrintWriter err = c.getErr();
          err.println(ex.getMessage());
          CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
          err.println(seeHelp(c));
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

  /** The width of the help text, for every command. */
  static final int USAGE_WIDTH = 100;

  /** The widest option (with its placeholder) that shares its line with the description. */
  static final int LONG_OPTIONS_WIDTH = 24;

  /** Returns the line that follows a usage error: where the command's help is. */
  static String seeHelp(CommandLine c) {
    return "see './" + c.getCommandSpec().qualifiedName() + " --help'";
  }

  /**
   * The same help layout for every command and subcommand: a blank line between the sections,
   * headings for the arguments, options and commands, and the default of every option that has
   * one.
   */
  private static void configureHelp(CommandLine cl) {
    UsageMessageSpec u = cl.getCommandSpec().usageMessage();
    u.descriptionHeading("%n")
        .parameterListHeading("%nArguments:%n")
        .optionListHeading("%nOptions:%n")
        .commandListHeading("%nCommands:%n")
        .showDefaultValues(true);
    for (CommandLine sub : cl.getSubcommands().values()) {
      configureHelp(sub);
    }
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

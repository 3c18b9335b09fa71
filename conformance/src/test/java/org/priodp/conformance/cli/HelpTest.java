package org.priodp.conformance.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.priodp.aggregator.cli.PrioDp;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The help of every command of {@code ./prio-dp}, from the one command line that the aggregator
 * and this module both contribute to (the conformance module sees all commands): whole one-line
 * summaries, no picocli warnings, an example, upper-case placeholders, defaults shown once,
 * required options marked by picocli, {@code help COMMAND}, and one-line usage errors.
 */
class HelpTest {

  /** The output of one in-process run; {@code warnings} is what picocli's tracer printed. */
  record Run(int code, String out, String err, String warnings) {}

  static Run run(String... args) {
    CommandLine cl = PrioDp.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    PrintStream systemErr = System.err;
    ByteArrayOutputStream traced = new ByteArrayOutputStream();
    int code;
    // picocli's tracer writes its WARN lines to System.err, not to the command line's err
    System.setErr(new PrintStream(traced, true, StandardCharsets.UTF_8));
    try {
      code = cl.execute(args);
    } finally {
      System.setErr(systemErr);
    }
    return new Run(code, out.toString(), err.toString(), traced.toString(StandardCharsets.UTF_8));
  }

  /** Every command and subcommand below the root, depth first (dql, dql encode, ...). */
  static List<CommandLine> allCommands() {
    List<CommandLine> all = new ArrayList<>();
    collect(PrioDp.commandLine(), all);
    return all;
  }

  private static void collect(CommandLine cl, List<CommandLine> all) {
    for (CommandLine sub : cl.getSubcommands().values()) {
      all.add(sub);
      collect(sub, all);
    }
  }

  /** The words after "prio-dp" that name the command: "dql encode" is {"dql", "encode"}. */
  static String[] path(CommandLine cl) {
    String[] q = cl.getCommandSpec().qualifiedName(" ").split(" ");
    return Arrays.copyOfRange(q, 1, q.length);
  }

  static String[] with(String[] path, String... more) {
    return Stream.concat(Arrays.stream(path), Arrays.stream(more)).toArray(String[]::new);
  }

  @TestFactory
  Stream<DynamicTest> everyCommandHasHelpThatReadsLikeGits() {
    List<CommandLine> all = allCommands();
    assertTrue(all.size() >= 15, "the aggregator's and this module's commands and help: " + all.size());
    return all.stream().map(cl -> DynamicTest.dynamicTest(String.join(" ", path(cl)), () -> checkHelp(cl)));
  }

  private static void checkHelp(CommandLine cl) {
    String[] path = path(cl);
    String name = String.join(" ", path);
    CommandSpec spec = cl.getCommandSpec();
    Run r = run(with(path, "--help"));
    assertEquals(0, r.code(), name);
    assertEquals("", r.err(), name);
    assertFalse(r.warnings().contains("WARN"), name + ": " + r.warnings());
    assertTrue(r.out().startsWith("Usage: prio-dp " + name), name + ":\n" + r.out());

    // the summary: one whole short sentence; the rest are paragraphs that picocli wraps
    String[] description = spec.usageMessage().description();
    assertTrue(description.length > 0, name + " has a description");
    String summary = String.format(description[0]);
    assertTrue(summary.length() <= 72, name + ": summary of " + summary.length() + " chars: " + summary);
    assertTrue(summary.endsWith(".") && Character.isUpperCase(summary.charAt(0)),
        name + ": the summary is a sentence: " + summary);
    for (String d : description) {
      assertFalse(d.stripTrailing().endsWith(","), name + ": a description line ends with ',': " + d);
    }
    String summaryLine = r.out().substring(0, sectionEnd(r.out())).lines()
        .filter(l -> !l.isBlank() && !l.startsWith(" ") && !l.startsWith("Usage:"))
        .findFirst().orElse("");
    assertEquals(summary, summaryLine, name + ": the summary is one line of the help");

    // an example in the footer
    List<String> footer = Arrays.stream(spec.usageMessage().footer())
        .map(f -> String.format(f).strip()).toList();
    assertTrue(footer.stream().anyMatch(f -> f.startsWith("Example")), name + ": footer " + footer);
    assertTrue(r.out().contains("\nExample"), name);

    for (ArgSpec a : spec.args()) {
      String what = name + " " + (a instanceof OptionSpec o ? o.longestName() : a.paramLabel());
      String text = String.join(" ", a.description());
      // one placeholder style: upper case, never <field>
      if (a.typeInfo().isBoolean() && a.isOption()) {
        continue;
      }
      assertTrue(a.paramLabel().matches("[A-Z][A-Z0-9_]*([=:,.][A-Z0-9_]+)*(\\.\\.\\.)?"),
          what + ": placeholder " + a.paramLabel());
      // required things are marked by picocli (no brackets in the usage line), not in words
      assertFalse(text.toLowerCase(Locale.ROOT).matches(".*\\(required[;)].*|.*\\brequired\\.\\s.*"),
          what + ": says 'required' in words: " + text);
      // a default is shown once: by picocli, or in words when picocli does not show it
      assertFalse(text.contains("${DEFAULT-VALUE}"), what + ": hand-written default: " + text);
      boolean shown = a.defaultValue() != null && a.showDefaultValue() != Help.Visibility.NEVER;
      if (shown) {
        assertFalse(text.toLowerCase(Locale.ROOT).contains("default"),
            what + ": default in words and by picocli: " + text);
        assertTrue(r.out().contains("Default: " + a.defaultValueString(true)), what);
      } else if (a.defaultValue() != null && !a.defaultValue().startsWith("${env:")) {
        assertTrue(text.contains("(default: "), what + ": hidden default not in words: " + text);
      }
    }

    // help COMMAND prints the same (picocli's help command takes one name: top-level commands)
    if (path.length == 1) {
      Run viaHelp = run("help", path[0]);
      assertEquals(0, viaHelp.code(), name);
      assertEquals(r.out(), viaHelp.out(), "prio-dp help " + name);
    }

    // a usage error is one line and a pointer to the help, not the whole help (picocli's own help
    // command takes any word as the command name)
    if (name.equals("help")) {
      return;
    }
    Run bad = run(with(path, "--no-such-option"));
    assertEquals(2, bad.code(), name);
    List<String> lines = bad.err().lines().toList();
    assertTrue(lines.get(0).contains("--no-such-option") || lines.get(0).startsWith("Missing required"),
        name + ": " + bad.err());
    assertEquals("see './prio-dp " + name + " --help'", lines.get(lines.size() - 1), bad.err());
    assertTrue(lines.size() <= 3, name + ": " + bad.err());
    assertFalse(bad.err().contains("Usage:"), name + ": " + bad.err());
    assertEquals("", bad.out(), name);
  }

  /** Where the description ends: the first section heading after the usage line, or the end. */
  private static int sectionEnd(String help) {
    int end = help.length();
    for (String heading : new String[] {"\nArguments:", "\nOptions:", "\nCommands:", "\nExample"}) {
      int i = help.indexOf(heading);
      if (i >= 0) {
        end = Math.min(end, i);
      }
    }
    return end;
  }

  /**
   * Examples that are not run, by how they start (the words after {@code prio-dp}), each with its
   * reason: they need a server, another party, files or ids from an earlier step, or run for
   * minutes. An example that holds an upper-case placeholder (SHARE1, HEX, N) is not run either:
   * its value comes from an earlier command's output.
   */
  static final java.util.Map<String, String> EXAMPLES_NOT_RUN = java.util.Map.ofEntries(
      java.util.Map.entry("serve ", "runs a server until stopped (DistributionIT runs serve)"),
      java.util.Map.entry("interop-client ", "runs a server until stopped"),
      java.util.Map.entry("interop-collector ", "runs a server until stopped"),
      java.util.Map.entry("upload ", "needs a running Leader and task new's client.json"),
      java.util.Map.entry("collect ", "needs a running Leader and task new's collector.json"),
      java.util.Map.entry("verify-keys ", "needs task new's leader.json or helper.json"),
      java.util.Map.entry("status ", "needs task new's leader.json and serve's store"),
      java.util.Map.entry("budget ", "needs task new's leader.json and serve's store"
          + " (BudgetCommandTest runs it)"),
      java.util.Map.entry("jobs ", "needs task new's leader.json and serve's store"),
      java.util.Map.entry("collection-jobs ", "needs task new's leader.json and serve's store"),
      java.util.Map.entry("keys --db jdbc:sqlite:priodp-helper.db retire ",
          "retires a config id that keys list printed"),
      java.util.Map.entry("noise-share ", "reads share.hex, an aggregate share from a Helper"),
      java.util.Map.entry("demo ", "starts a Leader and a Helper on ports (DemoCommandTest runs it)"),
      java.util.Map.entry("loadgen ", "starts servers and runs for minutes"),
      java.util.Map.entry("benchmarks ", "runs JMH for minutes"),
      java.util.Map.entry("vectors ", "needs the source tree's ../shared/vectors"),
      java.util.Map.entry("audit ", "runs a million measurements"),
      java.util.Map.entry("reproduce ", "runs for minutes and writes /tmp/rr"));

  /** Returns each example of a command's footer: its lines after "prio-dp", continuations joined. */
  static List<String> examples(CommandLine cl) {
    List<String> examples = new ArrayList<>();
    StringBuilder current = null;
    for (String f : cl.getCommandSpec().usageMessage().footer()) {
      for (String line : String.format(f).split("\\R")) {
        String l = line.strip();
        if (current != null) {
          current.append(' ').append(l);
        } else if (l.startsWith("prio-dp ")) {
          current = new StringBuilder(l.substring("prio-dp ".length()));
        } else {
          continue;
        }
        if (current.charAt(current.length() - 1) == '\\') {
          current.setLength(current.length() - 1);
        } else {
          examples.add(current.toString().strip());
          current = null;
        }
      }
    }
    return examples;
  }

  /**
   * Every example of every command's help runs and exits 0 (issue 24: the task --help example
   * lacked --chunk-length): as a user would paste it, by sh in a new JVM in an empty working
   * folder. Those that need a server, files or another step are listed, with the reason, in
   * {@link #EXAMPLES_NOT_RUN}.
   */
  @TestFactory
  Stream<DynamicTest> everyHelpExampleThatNeedsNoServerRuns(@org.junit.jupiter.api.io.TempDir
      java.nio.file.Path dir) {
    java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>();
    for (CommandLine cl : allCommands()) {
      all.addAll(examples(cl));
    }
    assertTrue(all.size() >= 20, "examples found: " + all);
    java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
    return all.stream().map(example -> DynamicTest.dynamicTest(example, () -> {
      String skip = EXAMPLES_NOT_RUN.entrySet().stream()
          .filter(e -> (example + " ").startsWith(e.getKey())).map(java.util.Map.Entry::getValue)
          .findFirst().orElse(null);
      if (skip == null && Arrays.stream(example.split(" ")).anyMatch(w -> w.matches("[A-Z][A-Z0-9_]*"))) {
        skip = "a placeholder takes a value from an earlier command's output";
      }
      if (skip != null) {
        System.out.println("help example not run (" + skip + "): prio-dp " + example);
        org.junit.jupiter.api.Assumptions.abort(skip);
      }
      java.nio.file.Path cwd = java.nio.file.Files.createDirectory(
          dir.resolve("example-" + n.incrementAndGet()));
      ProcessBuilder pb = new ProcessBuilder("sh", "-c",
          "exec \"$JAVA\" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp \"$CP\""
              + " org.priodp.aggregator.cli.PrioDp " + example)
          .directory(cwd.toFile()).redirectErrorStream(true);
      pb.environment().put("JAVA", java.nio.file.Path.of(System.getProperty("java.home"), "bin",
          "java").toString());
      pb.environment().put("CP", System.getProperty("java.class.path"));
      pb.environment().keySet().removeIf(k -> k.startsWith("PRIODP_"));
      Process p = pb.start();
      p.getOutputStream().close();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(0, p.waitFor(), "prio-dp " + example + ":\n" + out);
    }));
  }

  @Test
  void theCommandListShowsWholeSummariesAndTheExitCodes() {
    Run r = run("--help");
    assertEquals(0, r.code());
    assertEquals("", r.warnings());
    String list = r.out().substring(r.out().indexOf("\nCommands:\n") + 1);
    list = list.substring(0, list.indexOf("\n\n"));
    for (CommandLine cl : PrioDp.commandLine().getSubcommands().values()) {
      String name = cl.getCommandName();
      String summary = String.format(cl.getCommandSpec().usageMessage().description()[0]);
      assertTrue(list.lines().anyMatch(l -> l.startsWith("  " + name + " ") && l.endsWith(" " + summary)),
          name + " is listed with its whole summary on one line:\n" + list);
    }
    list.lines().forEach(l -> assertFalse(l.endsWith(","), l));
    assertTrue(r.out().contains("Exit codes: 0 ok, 1 "), r.out());
    assertTrue(r.out().contains("help COMMAND"), r.out());
  }

  @Test
  void helpWithoutACommandIsTheRootHelp() {
    Run viaHelp = run("help");
    assertEquals(0, viaHelp.code());
    assertEquals(run("--help").out(), viaHelp.out());
    Run unknown = run("help", "no-such-command");
    assertEquals(2, unknown.code());
  }
}

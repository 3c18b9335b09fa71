package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.priodp.aggregator.core.PrivacySettings;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.task.AttributionCodePoints;
import org.priodp.aggregator.task.AttributionSettings;
import org.priodp.aggregator.provision.ProvisionedTask;
import org.priodp.aggregator.task.DpBinding;
import org.priodp.aggregator.taskfile.DpSettingsJson;
import org.priodp.noise.Budget;
import org.priodp.noise.ledger.BudgetCap;
import org.priodp.noise.ledger.Durations;
import org.priodp.noise.ledger.PrivacyUnit;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code task new}: provisions a DAP task ("Task Configuration"), DAP-19 unless --dap-version
 * says dap-18. It generates the task ID,
 * the VDAF verification key, the Leader-Helper bearer token, the Collector's bearer token and the
 * Collector's X25519 HPKE key pair, and writes four files, each with only the secrets its party
 * needs: leader.json and helper.json (task files that {@code serve --config} reads; the verify key
 * and the Leader-Helper token, and on the Leader the Collector's token), collector.json (the
 * Collector's token, HPKE config and private key) and client.json (public parameters only). The
 * three files with secrets are created with mode 0600; existing files are kept unless --force.
 */
@Command(
    name = "new",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Writes a new task's files for the Leader, Helper, Collector and Clients.",
      "Generates the task ID, the VDAF verification key, the Leader-Helper and Collector bearer"
          + " tokens and the Collector's X25519 HPKE key pair. DIR/leader.json and DIR/helper.json"
          + " are task files for serve --config; DIR/collector.json is for collect and"
          + " DIR/client.json (no secret) for upload. The files with secrets get mode 0600.",
      "",
      "Without --epsilon or --rho the task adds no noise."},
    footer = {"%nExample:", "  prio-dp task new --vdaf Prio3Histogram --length 4 --chunk-length 2"
        + " --epsilon 1 --leader-url https://leader.example/ --helper-url"
        + " https://helper.example/ --out task1",
      "  prio-dp task new --vdaf Prio3L1BoundSum --length 10 --max-value 240 --chunk-length 9"
        + " --epsilon 1 --leader-url https://leader.example/ --helper-url https://helper.example/"
        + " --out task2"})
public final class TaskNewCommand implements Callable<Integer> {
  /** The names of the files, in the order they are written. */
  static final List<String> FILES = ProvisionedTask.FILES;

  @Spec
  CommandSpec spec;

  @Mixin
  VdafOptions vdaf = new VdafOptions();

  @Mixin
  DpOptions dp = new DpOptions();

  @Mixin
  DapVersionOption dapVersion = new DapVersionOption();

  @Option(names = "--dp-strategy", paramLabel = "NAME",
      description = "ReportBudgetDiscreteLaplace or ReportBudgetDiscreteGaussian (with --delta):"
          + " the noise of each release is calibrated to the epsilon of the attribution draft's"
          + " budgets (the collection job's min_dp_budget, else the least privacy_budget of the"
          + " batch's reports); in place of --epsilon or --rho.")
  String dpStrategy;

  @Option(names = "--delta", paramLabel = "DELTA",
      description = "The deployment's fixed delta of ReportBudgetDiscreteGaussian, e.g."
          + " 1/1000000000.")
  String delta;

  @Option(names = "--batch-mode", paramLabel = "MODE", defaultValue = "time_interval",
      description = "time_interval, leader_selected or collector_selected (the attribution"
          + " draft's: reports are uploaded to a collection job; needs dap-19).")
  String batchMode;

  @Option(names = "--time-precision", paramLabel = "SECONDS", defaultValue = "3600",
      description = "The task's time_precision: report times and batch intervals count it.")
  String timePrecision;

  @Option(names = "--min-batch-size", paramLabel = "N", defaultValue = "100",
      description = "Fewest reports a batch may hold to be collected.")
  String minBatchSize;

  @Option(names = "--leader-url", required = true, paramLabel = "URL",
      description = "The Leader's base URL (https://, may carry a path).")
  String leaderUrl;

  @Option(names = "--helper-url", required = true, paramLabel = "URL",
      description = "The Helper's base URL (https://, may carry a path).")
  String helperUrl;

  @Option(names = "--task-interval", paramLabel = "INTERVAL",
      description = "Optional task_interval extension, START/DURATION: START in RFC 3339 or"
          + " seconds since the epoch, DURATION in seconds, both multiples of --time-precision.")
  String taskInterval;

  @Option(names = "--task-info", paramLabel = "TEXT", defaultValue = "prio-dp task",
      description = "The task_info every party agrees on (up to 255 bytes; DAP-18 needs at least"
          + " 1).")
  String taskInfo;

  @Option(names = "--dp-binding",
      description = "Add prio-dp's dp_binding extension: the DP settings go into the AAD.")
  boolean dpBinding;

  @Option(names = "--collector-identity", paramLabel = "URL",
      description = "Bind the task to one Collector (attribution draft collector_identity task"
          + " extension): an https URL whose hpke_config must list the task's collector key.")
  String collectorIdentity;

  @Option(names = "--budget-source", paramLabel = "SITE",
      description = "Bind the task's reports to one source of privacy budget (attribution draft"
          + " budget_source task extension), e.g. the conversion site shop.example.")
  String budgetSource;

  @Option(names = "--privacy-unit", paramLabel = "UNIT", defaultValue = "report",
      description = "Whom the budget protects: report, or client (with --max-reports and"
          + " --period: each client uploads at most that many reports per period).")
  String privacyUnit;

  @Option(names = "--max-reports", paramLabel = "K",
      description = "With --privacy-unit client: most reports a client uploads per period.")
  Long maxReports;

  @Option(names = "--period", paramLabel = "DURATION",
      description = "With --privacy-unit client: the period, in seconds or e.g. 1d, 12h.")
  String period;

  @Option(names = "--budget-epsilon", paramLabel = "EPSILON",
      description = "Privacy budget per unit: releases past it are refused (pure DP tasks).")
  String budgetEpsilon;

  @Option(names = "--budget-rho", paramLabel = "RHO",
      description = "Privacy budget per unit as rho (zCDP tasks, or pure DP as epsilon^2/2).")
  String budgetRho;

  @Option(names = "--budget-window", paramLabel = "DURATION",
      description = "The budget holds over any window this long (e.g. 30d); default: the"
          + " task's life.")
  String budgetWindow;

  @Option(names = "--out", required = true, paramLabel = "DIR",
      description = "Folder for the four files (created if missing).")
  Path out;

  @Option(names = "--force", description = "Replace files that already exist in DIR.")
  boolean force;

  @Override
  public Integer call() throws IOException {
    Prio3Variant variant = vdaf.variant();
    DpStrategy strategy = reportBudgetStrategy().orElseGet(dp::strategy);
    SensitivityRule rule = dp.rule();
    long precision = positive("--time-precision", timePrecision);
    long minBatch = unsigned("--min-batch-size", minBatchSize);
    BatchMode mode = switch (batchMode.strip().toLowerCase(Locale.ROOT)) {
      case "time_interval" -> BatchMode.TIME_INTERVAL;
      case "leader_selected" -> BatchMode.LEADER_SELECTED;
      case "collector_selected" -> BatchMode.COLLECTOR_SELECTED;
      default -> throw new IllegalArgumentException("--batch-mode: expected time_interval,"
          + " leader_selected or collector_selected, got '" + batchMode + "'");
    };
    String leader = url("--leader-url", leaderUrl);
    String helper = url("--helper-url", helperUrl);
    DapVersion version = dapVersion.version();
    byte[] info = taskInfo.getBytes(StandardCharsets.UTF_8);
    if (info.length < version.taskInfoMinLength() || info.length > 255) {
      throw new IllegalArgumentException("--task-info: must be " + version.taskInfoMinLength()
          + " to 255 bytes in " + version.tag() + ", got " + info.length);
    }
    List<TaskExtension> extensions = new ArrayList<>();
    if (taskInterval != null) {
      extensions.add(TaskExtension.taskInterval(
          CollectCommand.interval("--task-interval", taskInterval, precision)));
    }
    if (dpBinding) {
      extensions.add(DpBinding.extension(variant, strategy, rule));
    }
    extensions.addAll(attribution().taskExtensions());
    extensions.sort(java.util.Comparator.comparingInt(TaskExtension::extensionType));
    TaskConfiguration config;
    try {
      config = TaskDefinition.configurationFor(variant, info, leader, helper, precision, minBatch,
          mode, extensions);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("task configuration: " + e.getMessage(), e);
    }
    SecureRandom random = new SecureRandom();
    ProvisionedTask g = ProvisionedTask.generate(version, config, variant, strategy, rule,
        random);
    Map<String, String> files = ProvisionedTask.withTaskFields(g.render(),
        DpSettingsJson.toJson(privacy()));
    write(out, files, force);
    PrintWriter w = spec.commandLine().getOut();
    for (String f : FILES) {
      w.println("wrote " + out.resolve(f) + (f.equals("client.json") ? "" : " (mode 0600)"));
    }
    w.println("task " + g.parameters().taskId().toBase64Url() + ": serve --config leader.json"
        + " and helper.json, give client.json to the Clients and keep collector.json for collect");
    w.flush();
    return 0;
  }

  /** Returns the attribution task extensions of the options, under the default code points. */
  private AttributionSettings attribution() {
    java.util.Optional<java.net.URI> identity = java.util.Optional.empty();
    if (collectorIdentity != null) {
      try {
        identity = java.util.Optional.of(AttributionSettings.parseIdentity(collectorIdentity));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--collector-identity: " + e.getMessage()
            .replaceFirst("^collector_identity: ", ""), e);
      }
    }
    try {
      return new AttributionSettings(AttributionCodePoints.DEFAULTS, identity,
          java.util.Optional.ofNullable(budgetSource));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--budget-source: " + e.getMessage()
          .replaceFirst("^budget_source: ", ""), e);
    }
  }

  /** Returns the privacy unit and budget of the options (issue 25; docs/PRIVACY.md). */
  private PrivacySettings privacy() {
    PrivacyUnit unit;
    switch (privacyUnit.strip().toLowerCase(Locale.ROOT)) {
      case "report" -> {
        if (maxReports != null || period != null) {
          throw new IllegalArgumentException("--max-reports and --period need --privacy-unit client");
        }
        unit = new PrivacyUnit.Report();
      }
      case "client" -> {
        if (maxReports == null || period == null) {
          throw new IllegalArgumentException("--privacy-unit client needs --max-reports and --period");
        }
        try {
          unit = new PrivacyUnit.ClientBound(maxReports, Durations.parse("--period", period));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(e.getMessage().startsWith("--") ? e.getMessage()
              : "--max-reports: " + e.getMessage(), e);
        }
      }
      default -> throw new IllegalArgumentException("--privacy-unit: expected report or client, got '"
          + privacyUnit + "'");
    }
    if (budgetEpsilon != null && budgetRho != null) {
      throw new IllegalArgumentException("give at most one of --budget-epsilon and --budget-rho");
    }
    if (budgetEpsilon == null && budgetRho == null) {
      if (budgetWindow != null) {
        throw new IllegalArgumentException("--budget-window needs --budget-epsilon or --budget-rho");
      }
      return new PrivacySettings(unit, Optional.empty());
    }
    Budget total;
    try {
      total = budgetEpsilon != null ? Budget.PureDp.parse(budgetEpsilon) : Budget.ZCdp.parse(budgetRho);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException((budgetEpsilon != null ? "--budget-epsilon: " : "--budget-rho: ")
          + e.getMessage(), e);
    }
    Optional<Long> window = budgetWindow == null ? Optional.empty()
        : Optional.of(Durations.parse("--budget-window", budgetWindow));
    return new PrivacySettings(unit, Optional.of(new BudgetCap(total, window)));
  }

  /**
   * Writes the files into {@code dir}: each into a new temporary file created with its final mode
   * (0600, or 0644 for client.json), then moved into place. Without {@code force} nothing is
   * written if any of them exists, and a file that appears meanwhile is not replaced.
   */
  static void write(Path dir, Map<String, String> files, boolean force) throws IOException {
    Files.createDirectories(dir);
    if (!force) {
      List<String> existing = files.keySet().stream()
          .filter(f -> Files.exists(dir.resolve(f), java.nio.file.LinkOption.NOFOLLOW_LINKS))
          .toList();
      if (!existing.isEmpty()) {
        throw new IllegalArgumentException("--out: " + dir + " already holds "
            + String.join(", ", existing) + " (give --force to replace them)");
      }
    }
    boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
    for (var e : files.entrySet()) {
      Set<PosixFilePermission> mode = PosixFilePermissions.fromString(
          e.getKey().equals("client.json") ? "rw-r--r--" : "rw-------");
      FileAttribute<?>[] attrs = posix
          ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(mode)}
          : new FileAttribute<?>[0];
      Path tmp = Files.createTempFile(dir, "." + e.getKey() + ".", ".tmp", attrs);
      try {
        Files.writeString(tmp, e.getValue(), StandardCharsets.UTF_8);
        Path target = dir.resolve(e.getKey());
        try {
          if (force) {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
          } else {
            Files.move(tmp, target);
          }
        } catch (AtomicMoveNotSupportedException x) {
          Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        } catch (FileAlreadyExistsException x) {
          throw new IllegalArgumentException("--out: " + target + " appeared meanwhile; not"
              + " replaced (give --force to replace it)", x);
        }
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
  }

  private static String url(String option, String text) {
    String v = text.strip();
    java.net.URI u;
    try {
      u = new java.net.URI(v);
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException(option + ": not a URL: " + e.getReason());
    }
    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("https") || scheme.equals("http")) || u.getHost() == null
        || u.getRawQuery() != null || u.getRawFragment() != null) {
      throw new IllegalArgumentException(option + ": expected an absolute https:// (or http://)"
          + " URL without query or fragment, got '" + text + "'");
    }
    return v;
  }

  static long positive(String option, String text) {
    long v = unsigned(option, text);
    if (v == 0) {
      throw new IllegalArgumentException(option + ": must be positive");
    }
    return v;
  }

  static long unsigned(String option, String text) {
    String t = text.strip();
    if (!t.matches("[0-9]{1,18}")) {
      throw new IllegalArgumentException(option + ": expected a non-negative integer, got '"
          + text + "'");
    }
    return Long.parseLong(t);
  }

  /** Returns the report-budget strategy of --dp-strategy (and --delta), if given. */
  private java.util.Optional<DpStrategy> reportBudgetStrategy() {
    if (dpStrategy == null) {
      if (delta != null) {
        throw new IllegalArgumentException("--delta: only with --dp-strategy"
            + " ReportBudgetDiscreteGaussian");
      }
      return java.util.Optional.empty();
    }
    if (dp.given()) {
      throw new IllegalArgumentException("--dp-strategy: give it or --epsilon/--rho, not both");
    }
    switch (dpStrategy.strip()) {
      case "ReportBudgetDiscreteLaplace" -> {
        if (delta != null) {
          throw new IllegalArgumentException("--delta: ReportBudgetDiscreteLaplace is pure DP"
              + " and has no delta");
        }
        return java.util.Optional.of(new DpStrategy.ReportBudgetDiscreteLaplace());
      }
      case "ReportBudgetDiscreteGaussian" -> {
        if (delta == null) {
          throw new IllegalArgumentException("--delta: required by ReportBudgetDiscreteGaussian,"
              + " e.g. --delta 1/1000000000");
        }
        try {
          return java.util.Optional.of(DpStrategy.ReportBudgetDiscreteGaussian.parse(delta));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("--delta: " + e.getMessage(), e);
        }
      }
      default -> throw new IllegalArgumentException("--dp-strategy: expected"
          + " ReportBudgetDiscreteLaplace or ReportBudgetDiscreteGaussian, got '" + dpStrategy
          + "' (--epsilon and --rho choose the fixed strategies)");
    }
  }
}

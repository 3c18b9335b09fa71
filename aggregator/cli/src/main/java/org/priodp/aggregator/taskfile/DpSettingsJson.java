package org.priodp.aggregator.taskfile;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.priodp.aggregator.core.PrivacySettings;
import org.priodp.noise.Budget;
import org.priodp.noise.Rational;
import org.priodp.noise.ledger.BudgetCap;
import org.priodp.noise.ledger.Durations;
import org.priodp.noise.ledger.PrivacyUnit;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * Reads a task's differential-privacy settings from its JSON object (docs/DAP.md "Task file"):
 * "dp_strategy" in Janus's or the readable shape, "sensitivity_rule", "noise_sampler",
 * "privacy_unit" and "privacy_budget". Every
 * problem is an IllegalArgumentException whose message starts with the field's JSON path.
 */
public final class DpSettingsJson {
  private DpSettingsJson() {}

  /**
   * Returns whether the task's noise is drawn by the fixed-work sampler: "noise_sampler" if
   * given, else true for every strategy that adds noise (docs/PRIVACY.md, "Timing"). There is no
   * silent fallback: a task whose scale (sigma^2) is beyond the fixed-work sampler's range is
   * refused, whether it asked for "hardened" or left the field out, with one line naming the
   * field, the reason and the largest supported value, and telling the operator to choose
   * "exact" explicitly.
   */
  static boolean hardenedSampler(JsonNode n, String path, Prio3Variant variant,
      DpStrategy strategy, SensitivityRule rule) {
    Boolean chosen = noiseSampler(n, path);
    boolean hardened = chosen != null ? chosen : strategy.hasHardenedSampler();
    if (hardened && !strategy.budgetFromReports()) {
      // a report-budget strategy's scale depends on each release's epsilon: checked at release
      try {
        org.priodp.vdaf.dp.Prio3DpMechanism.of(variant, strategy, rule).withHardenedSampler();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(path + ".noise_sampler: "
            + (chosen == null ? "absent, so \"hardened\"" : "\"hardened\"") + ", but " + e.getMessage()
            + "; set \"noise_sampler\": \"exact\" to use the exact sampler (its running time depends"
            + " on the noise: docs/PRIVACY.md, \"Timing\")", e);
      }
    }
    return hardened;
  }

  /**
   * "noise_sampler": "hardened" (the fixed-work discrete Laplace or Gaussian, within total
   * variation 2^-64 per draw of the exact one), "exact" (the exact sampler, whose running time
   * depends on the noise), or absent (hardened). Returns null for absent.
   */
  private static Boolean noiseSampler(JsonNode n, String path) {
    if (!n.has("noise_sampler")) {
      return null;
    }
    return switch (TaskFile.text(n, path, "noise_sampler").toLowerCase(Locale.ROOT)) {
      case "exact" -> false;
      case "hardened" -> true;
      default -> throw new IllegalArgumentException(path
          + ".noise_sampler: expected exact or hardened");
    };
  }

  static SensitivityRule sensitivityRule(JsonNode n, String path) {
    if (!n.has("sensitivity_rule")) {
      return SensitivityRule.PRIODP;
    }
    String text = TaskFile.text(n, path, "sensitivity_rule");
    return TaskFile.wrap(path + ".sensitivity_rule", () -> SensitivityRule.parse("sensitivity_rule", text));
  }

  /**
   * Parses a DP strategy object in the Janus or the readable shape (docs/DAP.md); errors start
   * with {@code path}.
   */
  public static DpStrategy dpStrategy(JsonNode n, String path) {
    if (!n.isObject()) {
      throw new IllegalArgumentException(path + ": expected an object with \"dp_strategy\"");
    }
    String kind = TaskFile.text(n, path, "dp_strategy");
    switch (kind) {
      case "NoDifferentialPrivacy" -> {
        TaskFile.only(n, path, Set.of("dp_strategy"));
        return new DpStrategy.NoDifferentialPrivacy();
      }
      case "PureDpDiscreteLaplace" -> {
        TaskFile.only(n, path, Set.of("dp_strategy", "budget", "epsilon"));
        Rational eps = budget(n, path, "epsilon", "epsilon");
        return TaskFile.wrap(path, () -> new DpStrategy.PureDpDiscreteLaplace(eps));
      }
      case "ZCdpDiscreteGaussian" -> {
        TaskFile.only(n, path, Set.of("dp_strategy", "budget", "rho"));
        Rational value = budget(n, path, "rho", "epsilon");
        // Janus's shape names libprio's budget: ZCdpBudget { epsilon }, with rho = epsilon^2 / 2
        // (sigma = sensitivity / epsilon). The readable shape gives rho itself.
        Rational rho = n.has("budget") ? value.square().divide(Rational.of(2)) : value;
        return TaskFile.wrap(path, () -> new DpStrategy.ZCdpDiscreteGaussian(rho));
      }
      case "ReportBudgetDiscreteLaplace" -> {
        TaskFile.only(n, path, Set.of("dp_strategy"));
        return new DpStrategy.ReportBudgetDiscreteLaplace();
      }
      case "ReportBudgetDiscreteGaussian" -> {
        TaskFile.only(n, path, Set.of("dp_strategy", "delta"));
        JsonNode d = TaskFile.need(n, path, "delta");
        if (!d.isTextual()) {
          throw new IllegalArgumentException(path + ".delta: expected a string such as"
              + " \"1/1000000000\" (numbers are refused to avoid binary floating point)");
        }
        return TaskFile.wrap(path + ".delta",
            () -> DpStrategy.ReportBudgetDiscreteGaussian.parse(d.asText()));
      }
      default -> throw new IllegalArgumentException(path + ".dp_strategy: unknown strategy '"
          + kind + "' (NoDifferentialPrivacy, PureDpDiscreteLaplace, ZCdpDiscreteGaussian,"
          + " ReportBudgetDiscreteLaplace, ReportBudgetDiscreteGaussian)");
    }
  }

  /** Reads the budget as readable {@code field} or as Janus {@code budget.janusField}. */
  private static Rational budget(JsonNode n, String path, String field, String janusField) {
    boolean readable = n.has(field);
    boolean janus = n.has("budget");
    if (readable == janus) {
      throw new IllegalArgumentException(path + ": give exactly one of \"" + field
          + "\" (e.g. \"0.1\" or \"1/10\") or \"budget\": {\"" + janusField + "\": [[num], [den]]}");
    }
    if (readable) {
      String p = path + "." + field;
      JsonNode v = n.get(field);
      if (!v.isTextual()) {
        throw new IllegalArgumentException(p + ": expected a string such as \"0.1\" or \"1/10\""
            + " (numbers are refused to avoid binary floating point)");
      }
      return TaskFile.wrap(p, () -> Rational.parsePositive(field, v.asText()));
    }
    JsonNode b = n.get("budget");
    String bp = path + ".budget";
    if (!b.isObject()) {
      throw new IllegalArgumentException(bp + ": expected {\"" + janusField + "\": [[num], [den]]}");
    }
    TaskFile.only(b, bp, Set.of(janusField));
    String p = bp + "." + janusField;
    JsonNode r = TaskFile.need(b, bp, janusField);
    if (!r.isArray() || r.size() != 2) {
      throw new IllegalArgumentException(p + ": expected [[numerator digits], [denominator digits]]");
    }
    BigInteger num = bigUint(r.get(0), p + "[0]");
    BigInteger den = bigUint(r.get(1), p + "[1]");
    if (den.signum() == 0) {
      throw new IllegalArgumentException(p + ": denominator is 0");
    }
    if (num.signum() == 0) {
      throw new IllegalArgumentException(p + ": must be > 0");
    }
    return TaskFile.wrap(p, () -> Rational.of(num, den));
  }

  /** Reads a serde BigUint: little-endian base-2^32 digits (an empty array is 0). */
  private static BigInteger bigUint(JsonNode n, String path) {
    if (!n.isArray() || n.size() > 8) {
      throw new IllegalArgumentException(path + ": expected an array of at most 8 uint32 digits");
    }
    BigInteger v = BigInteger.ZERO;
    for (int i = n.size() - 1; i >= 0; i--) {
      JsonNode d = n.get(i);
      if (!d.isIntegralNumber() || d.bigIntegerValue().signum() < 0
          || d.bigIntegerValue().bitLength() > 32) {
        throw new IllegalArgumentException(path + "[" + i + "]: expected a uint32 digit");
      }
      v = v.shiftLeft(32).add(d.bigIntegerValue());
    }
    return v;
  }

  /**
   * Reads "privacy_unit" and "privacy_budget" (docs/DAP.md "Task file"; issue 25): the unit
   * {"type": "report"} (the default when absent) or {"type": "client", "max_reports": K, "period":
   * "1d" or seconds}, and the budget {"epsilon": "1"} or {"rho": "1/2"} with an optional
   * "window": "30d" (absent: over the task's life); no budget means uncapped.
   */
  static PrivacySettings privacy(JsonNode n, String path) {
    PrivacyUnit unit = new PrivacyUnit.Report();
    if (n.has("privacy_unit")) {
      String p = path + ".privacy_unit";
      JsonNode u = n.get("privacy_unit");
      if (!u.isObject()) {
        throw new IllegalArgumentException(p + ": expected {\"type\": \"report\"} or {\"type\":"
            + " \"client\", \"max_reports\": 1, \"period\": \"1d\"}");
      }
      String type = TaskFile.text(u, p, "type");
      switch (type) {
        case "report" -> TaskFile.only(u, p, Set.of("type"));
        case "client" -> {
          TaskFile.only(u, p, Set.of("type", "max_reports", "period"));
          JsonNode k = TaskFile.need(u, p, "max_reports");
          if (!k.isIntegralNumber() || !k.canConvertToLong() || k.asLong() < 1) {
            throw new IllegalArgumentException(p + ".max_reports: expected a whole number >= 1");
          }
          long period = duration(TaskFile.need(u, p, "period"), p + ".period");
          unit = new PrivacyUnit.ClientBound(k.asLong(), period);
        }
        default -> throw new IllegalArgumentException(p + ".type: expected report or client, got '"
            + type + "'");
      }
    }
    Optional<BudgetCap> cap = Optional.empty();
    if (n.has("privacy_budget")) {
      String p = path + ".privacy_budget";
      JsonNode b = n.get("privacy_budget");
      if (!b.isObject()) {
        throw new IllegalArgumentException(p + ": expected {\"epsilon\": \"1\"} or {\"rho\": \"1/2\"},"
            + " with an optional \"window\": \"30d\"");
      }
      TaskFile.only(b, p, Set.of("epsilon", "rho", "window"));
      if (b.has("epsilon") == b.has("rho")) {
        throw new IllegalArgumentException(p + ": give exactly one of \"epsilon\" or \"rho\"");
      }
      String field = b.has("epsilon") ? "epsilon" : "rho";
      JsonNode v = b.get(field);
      if (!v.isTextual()) {
        throw new IllegalArgumentException(p + "." + field + ": expected a string such as \"1\" or"
            + " \"1/2\" (numbers are refused to avoid binary floating point)");
      }
      Budget total = TaskFile.wrap(p + "." + field, () -> field.equals("epsilon")
          ? Budget.PureDp.parse(v.asText()) : Budget.ZCdp.parse(v.asText()));
      Optional<Long> window = b.has("window")
          ? Optional.of(duration(b.get("window"), p + ".window")) : Optional.empty();
      cap = Optional.of(new BudgetCap(total, window));
    }
    return new PrivacySettings(unit, cap);
  }

  /** Reads a duration: whole seconds, or a string of seconds or with s, m, h or d ("30d"). */
  private static long duration(JsonNode v, String path) {
    if (v.isIntegralNumber() && v.canConvertToLong() && v.asLong() >= 1) {
      return v.asLong();
    }
    if (!v.isTextual()) {
      throw new IllegalArgumentException(path + ": expected seconds or a duration such as \"1d\"");
    }
    return TaskFile.wrap(path, () -> Durations.parse(path, v.asText()));
  }

  /**
   * Returns the task-file fields of a privacy unit and budget, as {@link #privacy} reads them:
   * nothing for the default (one report, no budget).
   */
  public static com.fasterxml.jackson.databind.node.ObjectNode toJson(PrivacySettings p) {
    var n = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    if (p.unit() instanceof PrivacyUnit.ClientBound c) {
      n.putObject("privacy_unit").put("type", "client").put("max_reports", c.maxReports())
          .put("period", Durations.format(c.periodSeconds()));
    }
    p.cap().ifPresent(c -> {
      var b = n.putObject("privacy_budget").put(c.parameterName(), c.total().parameter().toString());
      c.windowSeconds().ifPresent(w -> b.put("window", Durations.format(w)));
    });
    return n;
  }
}

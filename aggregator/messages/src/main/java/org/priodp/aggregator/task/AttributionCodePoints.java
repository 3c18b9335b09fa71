package org.priodp.aggregator.task;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The code points a deployment gives the five extensions of the DAP attribution draft
 * (draft-ietf-ppm-dap-attribution-00, section 9, where every one is still "TBD"): the
 * collector_selected batch mode (a uint8 in the "DAP Batch Mode Identifiers" registry), the
 * privacy_budget report extension, the min_dp_budget collection job extension, and the
 * collector_identity and budget_source task extensions (uint16 each in their registries).
 *
 * <p>Until the draft's IANA section is filled in, these are deployment settings that every
 * participant of a task must agree on. The defaults ({@link #DEFAULTS}) are values of prio-dp's
 * choosing that no DAP registry, nor taskprov, nor prio-dp's own dp_binding (0xFF00) uses today:
 * 0xFA for the batch mode and 0xFA01 to 0xFA04 for the extensions, in the draft's order. Immutable.
 *
 * @param collectorSelected the BatchMode code point of collector_selected (uint8, not 0, 1 or 2)
 * @param privacyBudget the ExtensionType of the privacy_budget report extension (uint16, not 0)
 * @param minDpBudget the CollectionJobExtensionType of min_dp_budget (uint16, not 0)
 * @param collectorIdentity the TaskExtensionType of collector_identity (uint16, not 0 or 1)
 * @param budgetSource the TaskExtensionType of budget_source (uint16, not 0 or 1, distinct from
 *     collector_identity and from dp_binding)
 */
public record AttributionCodePoints(int collectorSelected, int privacyBudget, int minDpBudget,
    int collectorIdentity, int budgetSource) {

  /** prio-dp's defaults: 0xFA, 0xFA01, 0xFA02, 0xFA03, 0xFA04. */
  public static final AttributionCodePoints DEFAULTS =
      new AttributionCodePoints(0xFA, 0xFA01, 0xFA02, 0xFA03, 0xFA04);

  /** Validates each code point against its registry's width and the values already taken. */
  public AttributionCodePoints {
    if (collectorSelected < 3 || collectorSelected > 0xff) {
      throw new IllegalArgumentException("collector_selected: a batch mode code point is a uint8"
          + " other than 0 (reserved), 1 (time_interval) and 2 (leader_selected), got "
          + collectorSelected);
    }
    uint16(privacyBudget, "privacy_budget", 1);
    uint16(minDpBudget, "min_dp_budget", 1);
    uint16(collectorIdentity, "collector_identity", 2);
    uint16(budgetSource, "budget_source", 2);
    if (collectorIdentity == budgetSource) {
      throw new IllegalArgumentException("budget_source: the task extension code point "
          + budgetSource + " is also collector_identity's");
    }
    for (int c : new int[] {collectorIdentity, budgetSource}) {
      if (c == DpBinding.EXTENSION_TYPE) {
        throw new IllegalArgumentException((c == collectorIdentity ? "collector_identity"
            : "budget_source") + ": 0x" + Integer.toHexString(c)
            + " is prio-dp's dp_binding task extension");
      }
    }
  }

  private static void uint16(int value, String name, int lowest) {
    if (value < lowest || value > 0xffff) {
      throw new IllegalArgumentException(name + ": a code point is a uint16 from " + lowest
          + (lowest == 1 ? " (0 is reserved)" : " (0 is reserved, 1 is task_interval)")
          + ", got " + value);
    }
  }

  /** Returns whether these are the defaults. */
  public boolean isDefault() {
    return equals(DEFAULTS);
  }

  /** Returns the code points by their draft names, in the draft's order (task file keys). */
  public Map<String, Integer> byName() {
    Map<String, Integer> m = new LinkedHashMap<>();
    m.put("collector_selected", collectorSelected);
    m.put("privacy_budget", privacyBudget);
    m.put("min_dp_budget", minDpBudget);
    m.put("collector_identity", collectorIdentity);
    m.put("budget_source", budgetSource);
    return m;
  }

  /**
   * Returns the code points with the named ones replaced, the others default; unknown names are
   * refused naming the key.
   */
  public static AttributionCodePoints of(Map<String, Integer> byName) {
    Map<String, Integer> m = DEFAULTS.byName();
    for (Map.Entry<String, Integer> e : byName.entrySet()) {
      if (!m.containsKey(e.getKey())) {
        throw new IllegalArgumentException(e.getKey() + ": not an attribution code point (one of "
            + String.join(", ", m.keySet()) + ")");
      }
      m.put(e.getKey(), e.getValue());
    }
    return new AttributionCodePoints(m.get("collector_selected"), m.get("privacy_budget"),
        m.get("min_dp_budget"), m.get("collector_identity"), m.get("budget_source"));
  }
}

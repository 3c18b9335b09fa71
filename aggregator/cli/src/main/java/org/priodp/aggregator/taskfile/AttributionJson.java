package org.priodp.aggregator.taskfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.task.AttributionCodePoints;
import org.priodp.aggregator.task.AttributionSettings;

/**
 * Reads and writes the task file's settings for the DAP attribution draft
 * (draft-ietf-ppm-dap-attribution-00): {@code "attribution_code_points": {"collector_selected":
 * 250, "privacy_budget": 64001, ...}} (optional; each key optional, absent keys keep prio-dp's
 * defaults, see {@link AttributionCodePoints}), and the two task extensions in the task's
 * "extensions" list, {@code {"type": "collector_identity", "url": "https://collector.example/"}}
 * and {@code {"type": "budget_source", "source": "shop.example"}}. Every problem is an
 * IllegalArgumentException starting with the JSON path.
 */
final class AttributionJson {
  /** The task field holding the code points. */
  static final String CODE_POINTS = "attribution_code_points";

  private AttributionJson() {
  }

  /** Reads "attribution_code_points" of a task object; absent means the defaults. */
  static AttributionCodePoints codePoints(JsonNode task, String path) {
    if (!task.has(CODE_POINTS)) {
      return AttributionCodePoints.DEFAULTS;
    }
    JsonNode n = task.get(CODE_POINTS);
    String p = path + "." + CODE_POINTS;
    if (!n.isObject()) {
      throw new IllegalArgumentException(p + ": expected an object like {\"privacy_budget\":"
          + " 64001}");
    }
    TaskFile.only(n, p, AttributionCodePoints.DEFAULTS.byName().keySet());
    Map<String, Integer> m = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = n.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().canConvertToInt() || !e.getValue().isIntegralNumber()) {
        throw new IllegalArgumentException(p + "." + e.getKey() + ": expected an integer code"
            + " point");
      }
      m.put(e.getKey(), e.getValue().intValue());
    }
    try {
      return AttributionCodePoints.of(m);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(p + "." + e.getMessage(), e);
    }
  }

  /**
   * Reads one attribution task extension of the "extensions" list ({@code collector_identity} or
   * {@code budget_source}); empty for any other type.
   */
  static Optional<TaskExtension> extension(String type, JsonNode e, String p,
      AttributionCodePoints codePoints) {
    switch (type) {
      case "collector_identity" -> {
        TaskFile.only(e, p, Set.of("type", "url"));
        String url = TaskFile.text(e, p, "url");
        try {
          return Optional.of(new AttributionSettings(codePoints,
              Optional.of(AttributionSettings.parseIdentity(url)), Optional.empty())
              .taskExtensions().get(0));
        } catch (IllegalArgumentException x) {
          throw new IllegalArgumentException(p + ".url: " + x.getMessage(), x);
        }
      }
      case "budget_source" -> {
        TaskFile.only(e, p, Set.of("type", "source"));
        String source = TaskFile.text(e, p, "source");
        try {
          return Optional.of(new AttributionSettings(codePoints, Optional.empty(),
              Optional.of(source)).taskExtensions().get(0));
        } catch (IllegalArgumentException x) {
          throw new IllegalArgumentException(p + ".source: " + x.getMessage(), x);
        }
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  /**
   * Writes a task extension back in the task file's form if it is an attribution one; returns
   * false otherwise.
   */
  static boolean write(TaskExtension e, AttributionCodePoints codePoints, ObjectNode o) {
    String text = new String(e.extensionData().toByteArray(), StandardCharsets.UTF_8);
    if (e.extensionType() == codePoints.collectorIdentity()) {
      o.put("type", "collector_identity");
      o.put("url", text);
      return true;
    }
    if (e.extensionType() == codePoints.budgetSource()) {
      o.put("type", "budget_source");
      o.put("source", text);
      return true;
    }
    return false;
  }

  /** Writes "attribution_code_points" if they are not the defaults. */
  static void writeCodePoints(AttributionCodePoints codePoints, ObjectNode task) {
    if (!codePoints.isDefault()) {
      ObjectNode o = task.putObject(CODE_POINTS);
      codePoints.byName().forEach(o::put);
    }
  }
}

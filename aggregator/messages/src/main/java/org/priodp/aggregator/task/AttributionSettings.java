package org.priodp.aggregator.task;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskExtension;

/**
 * What a task binds of the DAP attribution draft (draft-ietf-ppm-dap-attribution-00): the
 * deployment's {@link AttributionCodePoints}, and the two task extensions' values, the Collector's
 * identity (section 6: here the draft's URL option of section 6.1, an https URL whose {@code
 * hpke_config} must list the task's collector HPKE configuration) and the source of privacy budget
 * (section 7: for the Attribution API, the registrable domain of the conversion site, the unit each
 * browser budgets per). Each present value is a task extension of the TaskConfiguration, so it is
 * part of the InputShareAad and AggregateShareAad and both aggregators are bound to it. Immutable.
 *
 * @param codePoints the code points of the five extensions
 * @param collectorIdentity the collector_identity URL, if the task is bound to one Collector
 * @param budgetSource the budget_source, if the task is bound to one source of privacy budget
 */
public record AttributionSettings(AttributionCodePoints codePoints,
    Optional<URI> collectorIdentity, Optional<String> budgetSource) {

  /** The default code points and neither task extension. */
  public static final AttributionSettings NONE =
      new AttributionSettings(AttributionCodePoints.DEFAULTS, Optional.empty(), Optional.empty());

  /** Validates the parts: an https identity URL, a non-empty budget source that fits a uint16 vector. */
  public AttributionSettings {
    Objects.requireNonNull(codePoints, "attribution code points");
    Objects.requireNonNull(collectorIdentity, "collector_identity");
    Objects.requireNonNull(budgetSource, "budget_source");
    collectorIdentity.ifPresent(AttributionSettings::checkIdentity);
    budgetSource.ifPresent(s -> {
      int n = s.getBytes(StandardCharsets.UTF_8).length;
      if (n == 0 || n > 0xffff) {
        throw new IllegalArgumentException("budget_source: 1 to 65535 bytes of UTF-8, got " + n);
      }
    });
  }

  /**
   * Parses a collector identity URL: absolute https with a host, no user info, query or fragment
   * (draft section 6.1: the URL is an authenticated origin the aggregators fetch {@code
   * hpke_config} relative to).
   *
   * @throws IllegalArgumentException starting with "collector_identity:"
   */
  public static URI parseIdentity(String text) {
    URI u;
    try {
      u = new URI(text);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("collector_identity: not a URL: " + e.getMessage());
    }
    checkIdentity(u);
    return u;
  }

  private static void checkIdentity(URI u) {
    if (!"https".equals(u.getScheme()) || u.getHost() == null || u.getHost().isEmpty()) {
      throw new IllegalArgumentException("collector_identity: an https URL with a host, like"
          + " https://collector.example/, got " + u);
    }
    if (u.getRawUserInfo() != null || u.getRawQuery() != null || u.getRawFragment() != null) {
      throw new IllegalArgumentException("collector_identity: no user info, query or fragment in"
          + " the URL, got " + u);
    }
  }

  /** Returns the task extensions these values are carried in, in increasing type order. */
  public List<TaskExtension> taskExtensions() {
    List<TaskExtension> out = new ArrayList<>();
    collectorIdentity.ifPresent(u -> out.add(new TaskExtension(codePoints.collectorIdentity(),
        u.toString().getBytes(StandardCharsets.UTF_8))));
    budgetSource.ifPresent(s -> out.add(new TaskExtension(codePoints.budgetSource(),
        s.getBytes(StandardCharsets.UTF_8))));
    out.sort(java.util.Comparator.comparingInt(TaskExtension::extensionType));
    return List.copyOf(out);
  }

  /** Returns whether {@code type} is one of the two attribution task extensions. */
  public static boolean isAttributionExtension(int type, AttributionCodePoints codePoints) {
    return type == codePoints.collectorIdentity() || type == codePoints.budgetSource();
  }

  /**
   * Reads the collector_identity and budget_source task extensions of a configuration under the
   * given code points (other extensions are ignored here; {@link TaskParameters#checkExtensions}
   * refuses unknown ones).
   *
   * @throws IllegalArgumentException starting with "extensions:" for data that is not UTF-8 or not
   *     a valid value
   */
  public static AttributionSettings of(TaskConfiguration configuration,
      AttributionCodePoints codePoints) {
    Optional<URI> identity = Optional.empty();
    Optional<String> source = Optional.empty();
    for (TaskExtension e : configuration.extensions()) {
      if (e.extensionType() == codePoints.collectorIdentity()) {
        String text = utf8(e, "collector_identity");
        try {
          identity = Optional.of(parseIdentity(text));
        } catch (IllegalArgumentException x) {
          throw new IllegalArgumentException("extensions: " + x.getMessage(), x);
        }
      } else if (e.extensionType() == codePoints.budgetSource()) {
        source = Optional.of(utf8(e, "budget_source"));
      }
    }
    try {
      return new AttributionSettings(codePoints, identity, source);
    } catch (IllegalArgumentException x) {
      throw new IllegalArgumentException("extensions: " + x.getMessage(), x);
    }
  }

  private static String utf8(TaskExtension e, String name) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(e.extensionData().toByteArray())).toString();
    } catch (CharacterCodingException x) {
      throw new IllegalArgumentException("extensions: " + name + " is not UTF-8 text");
    }
  }
}

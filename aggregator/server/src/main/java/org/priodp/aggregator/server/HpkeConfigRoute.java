package org.priodp.aggregator.server;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.priodp.aggregator.core.HelperHpkeKeys;
import org.priodp.aggregator.dap.DapMediaType;

/**
 * Answers {@code GET {base}hpke_config} (DAP-18 "HPKE Configuration Request") for either role:
 * the HpkeConfigList of the active keys of the key ring (the Leader and the Helper of one store
 * advertise the same keys), media type {@code application/ppm-dap;message=hpke-config-list},
 * {@code Cache-Control: max-age=86400} (the spec's example; keys are retired, not deleted, so old
 * ones keep decrypting). Any other method is 405. Thread-safe.
 */
public final class HpkeConfigRoute {
  /** The Cache-Control of the HPKE configuration (DAP-18 suggests days). */
  public static final String CACHE_CONTROL = "max-age=86400";

  private final HelperHpkeKeys keys;

  /** Creates the route over a key ring. */
  public HpkeConfigRoute(HelperHpkeKeys keys) {
    this.keys = Objects.requireNonNull(keys, "keys");
  }

  /** Returns the key ring it advertises. */
  public HelperHpkeKeys keys() {
    return keys;
  }

  /** Answers one request on {@code {base}hpke_config}. */
  HttpReply handle(String method) {
    if (!"GET".equals(method)) {
      return DapProblem.methodNotAllowed("GET", null);
    }
    byte[] list = keys.advertisedList();
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Content-Type", DapMediaType.HPKE_CONFIG_LIST.contentType());
    h.put("Cache-Control", CACHE_CONTROL);
    return new HttpReply(200, h, list);
  }
}

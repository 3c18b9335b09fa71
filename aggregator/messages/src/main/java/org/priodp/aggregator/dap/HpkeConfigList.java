package org.priodp.aggregator.dap;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * An Aggregator's HPKE configurations in decreasing order of preference, {@code HpkeConfig
 * HpkeConfigList<10..2^16-1>} (DAP-18 "HPKE Configuration Request"), media type
 * {@code application/ppm-dap;message=hpke-config-list}; at least one entry, distinct ids
 * ("Aggregators MUST allocate distinct id values").
 *
 * <p>This is the one codec of the list, for the Client and everyone else. Entries that name an
 * algorithm this project does not know or implement, or whose public key does not fit the KEM,
 * decode and re-encode byte for byte (their ids are kept raw, see {@link HpkeConfig}): DAP-18 has
 * the Client skip the configs it cannot use and abort only if none is usable, which
 * {@link #firstSupported()} expresses.
 */
public record HpkeConfigList(List<HpkeConfig> configs) {
  /** Validates that the list is non-empty, its ids distinct and its encoding within 2^16-1 bytes. */
  public HpkeConfigList {
    configs = List.copyOf(configs);
    if (configs.isEmpty()) {
      throw new IllegalArgumentException("HpkeConfigList: empty");
    }
    Set<HpkeConfigId> ids = new HashSet<>();
    long size = 0;
    for (HpkeConfig c : configs) {
      if (!ids.add(c.id())) {
        throw new IllegalArgumentException("HpkeConfigList: duplicate id " + c.id().value());
      }
      size += c.encode().length;
    }
    if (size > 0xffff) {
      throw new IllegalArgumentException("HpkeConfigList: " + size + " bytes exceed 65535");
    }
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter inner = new DapWriter();
    for (HpkeConfig c : configs) {
      c.write(inner);
    }
    return new DapWriter().vector(2, 10, 0xffff, inner.toByteArray()).toByteArray();
  }

  /**
   * Returns the first config, in the Aggregator's order of preference, that this project can seal
   * to ({@link HpkeConfig#isSupported()}); empty if there is none, in which case a Client must
   * abort (DAP-18 "HPKE Configuration Request").
   */
  public Optional<HpkeConfig> firstSupported() {
    return configs.stream().filter(HpkeConfig::isSupported).findFirst();
  }

  /**
   * Decodes one HpkeConfigList with nothing after it: a well-formed, non-empty list with distinct
   * ids, whatever algorithms its entries name.
   */
  public static HpkeConfigList decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "HpkeConfigList", r -> {
      DapReader list = r.subVector(2, 10, 0xffff, "hpke_config_list");
      List<HpkeConfig> out = new ArrayList<>();
      while (list.remaining() > 0) {
        out.add(HpkeConfig.read(list, "hpke_config_list[" + out.size() + "]"));
      }
      return Decoding.build("hpke_config_list", () -> new HpkeConfigList(out));
    });
  }
}

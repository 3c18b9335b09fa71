package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.datastore.jdbc.Stores.RANDOM;
import static org.priodp.aggregator.datastore.jdbc.Stores.bs;
import static org.priodp.aggregator.datastore.jdbc.Stores.bytes;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.datastore.HelperHpkeKey;
import org.priodp.aggregator.hpke.HpkeAeadId;
import org.priodp.aggregator.hpke.HpkeKdfId;
import org.priodp.aggregator.hpke.HpkeKemId;

class JdbcHpkeKeysTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void helperKeysAreInsertedOncePerConfigIdAndRetired(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      int configId = RANDOM.nextInt(256);
      store.hpkeKeys().setState(configId, HelperHpkeKey.State.RETIRED);
      HpkeConfig config = new HpkeConfig(new HpkeConfigId(configId),
          HpkeKemId.DHKEM_X25519_HKDF_SHA256, HpkeKdfId.fromCode(1), HpkeAeadId.fromCode(1),
          bytes(32, 9));
      HelperHpkeKey key = new HelperHpkeKey(config, bs(32, 3), HelperHpkeKey.State.ACTIVE,
          Instant.ofEpochMilli(1000));
      boolean inserted = store.hpkeKeys().insertIfAbsent(key);
      assertFalse(store.hpkeKeys().insertIfAbsent(key), "a config id is used once");
      if (inserted) {
        assertEquals(List.of(key.config()), store.hpkeKeys().all().stream()
            .filter(k -> k.config().id().value() == configId).map(HelperHpkeKey::config)
            .toList());
      }
      assertTrue(store.hpkeKeys().setState(configId, HelperHpkeKey.State.RETIRED));
      assertEquals(HelperHpkeKey.State.RETIRED, store.hpkeKeys().all().stream()
          .filter(k -> k.config().id().value() == configId).findFirst().orElseThrow().state());
    }
  }
}

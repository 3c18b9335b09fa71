package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigList;
import org.priodp.aggregator.datastore.HelperHpkeKey;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.hpke.HpkeSuite;

/** The Helper's HPKE key ring over a real SQLite store (DAP-18 "HPKE Configuration Request"). */
class HelperHpkeKeysTest {
  @TempDir
  Path dir;

  @Test
  void generatesOneActiveKeyAdvertisesActiveKeysNewestFirstAndKeepsRetiredOnes() {
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("k.db"))) {
      Clock t1 = Clock.fixed(Instant.ofEpochSecond(1000), ZoneOffset.UTC);
      Clock t2 = Clock.fixed(Instant.ofEpochSecond(2000), ZoneOffset.UTC);
      HelperHpkeKeys keys = new HelperHpkeKeys(store, new SecureRandom(), t1);
      assertTrue(keys.advertised().isEmpty());
      HelperHpkeKey first = keys.ensureActive();
      assertEquals(first, keys.ensureActive(), "no second key while one is active");
      assertEquals(HpkeSuite.DAP_MANDATORY.kem(), first.config().kemId());
      assertEquals(HpkeSuite.DAP_MANDATORY.kdf(), first.config().kdfId());
      assertEquals(HpkeSuite.DAP_MANDATORY.aead(), first.config().aeadId());
      HelperHpkeKey second = new HelperHpkeKeys(store, new SecureRandom(), t2).add();
      assertFalse(first.config().id().equals(second.config().id()), "distinct config ids");
      assertEquals(List.of(second.config(), first.config()), keys.advertised());
      assertEquals(new HpkeConfigList(List.of(second.config(), first.config())),
          HpkeConfigList.decode(keys.advertisedList()));
      assertTrue(keys.retire(first.config().id().value()));
      assertEquals(List.<HpkeConfig>of(second.config()), keys.advertised());
      assertEquals(HelperHpkeKey.State.RETIRED,
          keys.find(first.config().id().value()).orElseThrow().state(), "still found");
      assertFalse(keys.find(first.config().id().value()).orElseThrow().toString()
          .contains(first.privateKey().toString()), "toString never shows the private key");
    }
  }

  @Test
  void theKeyComesFromTheInjectedGenerator() throws Exception {
    Clock t = Clock.fixed(Instant.ofEpochSecond(1000), ZoneOffset.UTC);
    HelperHpkeKey[] keys = new HelperHpkeKey[2];
    for (int i = 0; i < 2; i++) {
      SecureRandom seeded = SecureRandom.getInstance("SHA1PRNG");
      seeded.setSeed(new byte[] {4, 2});
      try (JdbcDatastore store = JdbcDatastore.openSqlite(
          dir.resolve("seeded-" + i + ".db"))) {
        keys[i] = new HelperHpkeKeys(store, seeded, t).add();
      }
    }
    assertEquals(keys[0].config(), keys[1].config(), "the same id and public key");
    assertEquals(keys[0].privateKey(), keys[1].privateKey());
  }
}

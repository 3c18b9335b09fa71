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
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.HpkeConfigList;
import org.priodp.aggregator.datastore.HelperHpkeKey;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.hpke.HpkeAeadId;
import org.priodp.aggregator.hpke.HpkeKdfId;
import org.priodp.aggregator.hpke.HpkeKemId;
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
      assertEquals(Optional.of(HpkeSuite.DAP_MANDATORY), first.config().suite());
      assertTrue(first.config().isSupported());
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

  @Test
  void aStoredKeyThisProjectCannotSealToIsNeverAdvertised() {
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("u.db"))) {
      Instant t = Instant.ofEpochSecond(1000);
      HelperHpkeKeys keys = new HelperHpkeKeys(store, new SecureRandom(),
          Clock.fixed(t, ZoneOffset.UTC));
      // X25519 with a 16-byte public key (Npk is 32), and P-384 (registered, not implemented)
      HpkeConfig shortKey = new HpkeConfig(new HpkeConfigId(1), HpkeKemId.DHKEM_X25519_HKDF_SHA256,
          HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM, new byte[16]);
      HpkeConfig p384 = new HpkeConfig(new HpkeConfigId(2), HpkeKemId.DHKEM_P384_HKDF_SHA384,
          HpkeKdfId.HKDF_SHA384, HpkeAeadId.AES_256_GCM, new byte[97]);
      for (HpkeConfig c : List.of(shortKey, p384)) {
        assertTrue(store.hpkeKeys().insertIfAbsent(new HelperHpkeKey(c,
            ByteString.copyOf(new byte[32]),
            HelperHpkeKey.State.ACTIVE, t)));
      }
      assertEquals(List.of(), keys.advertised());
      HelperHpkeKey generated = keys.ensureActive();
      assertTrue(generated.config().isSupported(), "a usable key is generated");
      assertEquals(new HpkeConfigList(List.of(generated.config())),
          HpkeConfigList.decode(keys.advertisedList()));
      assertEquals(3, keys.all().size(), "the unusable keys stay stored");
    }
  }
}

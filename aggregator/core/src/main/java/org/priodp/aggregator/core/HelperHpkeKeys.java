package org.priodp.aggregator.core;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.HpkeConfigList;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.HelperHpkeKey;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;

/**
 * This aggregator's HPKE keys as kept in the store (DAP-18 "HPKE Configuration Request", "Input
 * Share Decryption"): the active keys are advertised in the HpkeConfigList, newest first; active
 * and retired keys decrypt. {@link #ensureActive} generates a key of the mandatory suite
 * DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-128-GCM when none is active, its secret derived
 * (RFC 9180 DeriveKeyPair) from 32 bytes of the injected generator. Keys are read from
 * the store on every call, so a key added or retired by {@code ./prio-dp keys} in another process
 * takes effect without a restart. Thread-safe.
 */
public final class HelperHpkeKeys {
  private final Datastore store;
  private final SecureRandom random;
  private final Clock clock;

  /** Creates the key ring over a store, drawing new keys and ids from {@code random}. */
  public HelperHpkeKeys(Datastore store, SecureRandom random, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.random = Objects.requireNonNull(random, "random");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Returns every stored key, active and retired. */
  public List<HelperHpkeKey> all() {
    return store.hpkeKeys().all();
  }

  /**
   * Generates an active key if no active key is one this project can seal to; returns it or the
   * first such active key.
   */
  public HelperHpkeKey ensureActive() {
    for (HelperHpkeKey k : store.hpkeKeys().all()) {
      if (k.state() == HelperHpkeKey.State.ACTIVE && k.config().isSupported()) {
        return k;
      }
    }
    return add();
  }

  /**
   * Generates and stores a new active key of the mandatory suite under a config id no stored key
   * uses; throws IllegalStateException if all 256 ids are taken.
   */
  public HelperHpkeKey add() {
    for (int attempt = 0; attempt < 8; attempt++) {
      Set<Integer> used = new HashSet<>();
      for (HelperHpkeKey k : store.hpkeKeys().all()) {
        used.add(k.config().id().value());
      }
      List<Integer> free = new ArrayList<>();
      for (int i = 0; i < 256; i++) {
        if (!used.contains(i)) {
          free.add(i);
        }
      }
      if (free.isEmpty()) {
        throw new IllegalStateException("all 256 HPKE config ids are taken; delete retired keys");
      }
      int id = free.get(random.nextInt(free.size()));
      // RFC 9180 DeriveKeyPair from 32 bytes of the injected generator: as random as it is
      byte[] ikm = new byte[32];
      random.nextBytes(ikm);
      HpkeKeyPair kp = new Hpke(HpkeSuite.DAP_MANDATORY).deriveKeyPair(ikm);
      java.util.Arrays.fill(ikm, (byte) 0);
      HpkeConfig config = new HpkeConfig(new HpkeConfigId(id), HpkeSuite.DAP_MANDATORY.kem(),
          HpkeSuite.DAP_MANDATORY.kdf(), HpkeSuite.DAP_MANDATORY.aead(), kp.publicKey());
      HelperHpkeKey key = new HelperHpkeKey(config, ByteString.copyOf(kp.secretKey()),
          HelperHpkeKey.State.ACTIVE, clock.instant());
      if (store.hpkeKeys().insertIfAbsent(key)) {
        return key;
      }
      // another process took the id meanwhile: pick again
    }
    throw new IllegalStateException("could not allocate an HPKE config id");
  }

  /** Retires the key with this config id (no longer advertised, still decrypts). */
  public boolean retire(int configId) {
    return store.hpkeKeys().setState(configId, HelperHpkeKey.State.RETIRED);
  }

  /**
   * Returns the HpkeConfigList of the active keys, newest first (DAP-18: decreasing order of
   * preference); empty if none is active. A stored key this project cannot seal to
   * ({@link HpkeConfig#isSupported()}) is never advertised.
   */
  public List<HpkeConfig> advertised() {
    List<HelperHpkeKey> active = new ArrayList<>();
    for (HelperHpkeKey k : store.hpkeKeys().all()) {
      if (k.state() == HelperHpkeKey.State.ACTIVE) {
        active.add(k);
      }
    }
    active.sort((a, b) -> b.createdAt().compareTo(a.createdAt()));
    return active.stream().map(HelperHpkeKey::config).filter(HpkeConfig::isSupported).toList();
  }

  /** Returns the encoded HpkeConfigList of the active keys, generating one if none is active. */
  public byte[] advertisedList() {
    List<HpkeConfig> configs = advertised();
    if (configs.isEmpty()) {
      ensureActive();
      configs = advertised();
    }
    return new HpkeConfigList(configs).encode();
  }

  /** Returns the key (active or retired) with this config id, if any. */
  public Optional<HelperHpkeKey> find(int configId) {
    return store.hpkeKeys().all().stream().filter(k -> k.config().id().value() == configId)
        .findFirst();
  }

  /** Returns the key pair of a stored key. */
  static HpkeKeyPair keyPair(HelperHpkeKey k) {
    return new HpkeKeyPair(k.config().kem().orElseThrow(), k.privateKey().toByteArray(),
        k.config().publicKey().toByteArray());
  }
}

package org.priodp.aggregator.datastore;

import java.util.List;

/**
 * This aggregator's HPKE key pairs, shared by all its tasks (DAP-18 "HPKE Configuration
 * Request"): an active key is advertised, a retired one still decrypts. Each operation is one
 * statement of its own.
 */
public interface HpkeKeyRepository {
  /** Returns the keys, active and retired, by config id. */
  List<HelperHpkeKey> all();

  /** Inserts a key unless its config id is taken; returns whether it was inserted. */
  boolean insertIfAbsent(HelperHpkeKey key);

  /** Sets the state of the key with this config id; returns whether it exists. */
  boolean setState(int configId, HelperHpkeKey.State state);
}

package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.datastore.jdbc.Stores.bs;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.VdafVerifyKey;

class JdbcVdafVerifyKeysTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void keysAreStoredOncePerIdPerTaskRetiredAndMarkedRefused(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = Stores.randomTask();
      TaskId other = Stores.randomTask();
      VdafVerifyKey k0 = VdafVerifyKey.active(0, bs(32, 1), Instant.ofEpochMilli(1000));
      VdafVerifyKey k7 = VdafVerifyKey.active(7, bs(32, 2), Instant.ofEpochMilli(2000));
      assertTrue(Stores.holds(store, task, tx -> tx.vdafVerifyKeys().insertIfAbsent(k7)));
      assertTrue(Stores.holds(store, task, tx -> tx.vdafVerifyKeys().insertIfAbsent(k0)));
      VdafVerifyKey again = VdafVerifyKey.active(0, bs(32, 9), Instant.ofEpochMilli(3000));
      assertFalse(Stores.holds(store, task, tx -> tx.vdafVerifyKeys().insertIfAbsent(again)),
          "an id is used once per task");
      assertTrue(Stores.holds(store, other, tx -> tx.vdafVerifyKeys().insertIfAbsent(again)),
          "another task has its own ids");
      assertEquals(List.of(k0, k7), store.inTaskTransaction(task,
          tx -> tx.vdafVerifyKeys().all()), "by id, the first key of id 0 kept");

      Instant refused = Instant.ofEpochMilli(5000);
      assertTrue(Stores.holds(store, task,
          tx -> tx.vdafVerifyKeys().setHelperRejectedAt(7, Optional.of(refused))));
      assertTrue(Stores.holds(store, task,
          tx -> tx.vdafVerifyKeys().setState(0, VdafVerifyKey.State.RETIRED)));
      List<VdafVerifyKey> now = store.inTaskTransaction(task, tx -> tx.vdafVerifyKeys().all());
      assertEquals(VdafVerifyKey.State.RETIRED, now.get(0).state());
      assertEquals(Optional.of(refused), now.get(1).helperRejectedAt());
      assertTrue(Stores.holds(store, task,
          tx -> tx.vdafVerifyKeys().setHelperRejectedAt(7, Optional.empty())));
      assertEquals(Optional.empty(), store.inTaskTransaction(task,
          tx -> tx.vdafVerifyKeys().all()).get(1).helperRejectedAt());
      assertFalse(Stores.holds(store, task,
          tx -> tx.vdafVerifyKeys().setState(3, VdafVerifyKey.State.RETIRED)), "no key 3");
      assertEquals(VdafVerifyKey.State.ACTIVE, store.inTaskTransaction(other,
          tx -> tx.vdafVerifyKeys().all()).get(0).state(), "the other task's key 0 untouched");
    }
  }
}

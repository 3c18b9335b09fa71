package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.HelperHpkeKeys;
import org.priodp.aggregator.dap.HpkeConfigList;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;

/** The HPKE configuration resource (DAP-18 "HPKE Configuration Request"). */
class HpkeConfigRouteTest {
  @TempDir
  Path dir;

  @Test
  void getAdvertisesTheActiveKeysAndOtherMethodsAre405() {
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("k.db"))) {
      HelperHpkeKeys keys = new HelperHpkeKeys(store, new SecureRandom(), Clock.systemUTC());
      HpkeConfigRoute route = new HpkeConfigRoute(keys);
      assertSame(keys, route.keys());
      HttpReply r = route.handle("GET");
      assertEquals(200, r.status());
      assertEquals("application/ppm-dap;message=hpke-config-list", r.contentType());
      assertEquals(HpkeConfigRoute.CACHE_CONTROL, r.headers().get("Cache-Control"));
      assertEquals(keys.advertised(), HpkeConfigList.decode(r.body()).configs());
      HttpReply post = route.handle("POST");
      assertEquals(405, post.status());
      assertEquals("GET", post.headers().get("Allow"));
      assertEquals(DapProblem.CONTENT_TYPE, post.contentType());
    }
  }
}

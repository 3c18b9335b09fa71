package org.priodp.aggregator.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** Resource URLs under a base URL with or without a path (DAP-18 "HTTP Usage"), and origins. */
class DapHttpTest {
  @Test
  void resourcesAreAppendedToTheBaseUrlWithOneSlash() {
    assertEquals(URI.create("https://example.com/api/dap/hpke_config"),
        DapHttp.resource("https://example.com/api/dap", "hpke_config"));
    assertEquals(URI.create("https://example.com/api/dap/tasks/x/reports"),
        DapHttp.resource("https://example.com/api/dap/", "tasks/x/reports"));
    assertEquals(URI.create("http://127.0.0.1:8080/hpke_config"),
        DapHttp.resource("http://127.0.0.1:8080", "hpke_config"));
  }

  @Test
  void theOriginIsSchemeHostAndPort() {
    assertTrue(DapHttp.sameOrigin(URI.create("https://a.example/x"),
        URI.create("https://A.example:443/y")));
    assertFalse(DapHttp.sameOrigin(URI.create("https://a.example/x"),
        URI.create("http://a.example/x")));
    assertFalse(DapHttp.sameOrigin(URI.create("https://a.example/x"),
        URI.create("https://a.example:8443/x")));
    assertFalse(DapHttp.sameOrigin(URI.create("https://a.example/x"),
        URI.create("https://b.example/x")));
  }
}

package org.priodp.aggregator.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.testing.UntrustedTlsServer;

/**
 * Resource URLs under a base URL with or without a path (DAP-18 "HTTP Usage"), origins, and
 * transport failures that name the URL and the fix.
 */
class DapHttpTest {
  @TempDir
  Path dir;

  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10)).build();

  private static IOException sendFails(URI uri, String who) {
    return assertThrows(IOException.class, () -> DapHttp.send(HTTP,
        HttpRequest.newBuilder(uri).GET().build(), who));
  }

  /** A Leader that is down: "connection refused; is the Leader running?", not ClosedChannel. */
  @Test
  void aClosedPortIsConnectionRefusedNamingTheUrl() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    URI uri = URI.create("http://127.0.0.1:" + port + "/tasks/x/reports");
    IOException e = sendFails(uri, "the Leader");
    assertEquals("cannot connect to " + uri + ": connection refused; is the Leader running?",
        e.getMessage());
    assertNull(e.getCause(), "a cause would add ClosedChannelException to the CLI's line");
  }

  /** An untrusted certificate names the origin and the trust store, not "PKIX path building". */
  @Test
  void anUntrustedCertificateNamesTheTrustStore() throws Exception {
    try (UntrustedTlsServer server = UntrustedTlsServer.start(dir)) {
      IOException e = sendFails(URI.create(server.url() + "hpke_config"), "the Leader");
      assertTrue(e.getMessage().startsWith("TLS to " + server.url() + " failed: the Leader's"
          + " certificate is not trusted; give the JVM a trust store with its CA:"
          + " JAVA_OPTS=\"-Djavax.net.ssl.trustStore=FILE"), e.getMessage());
      assertFalse(e.getMessage().contains("PKIX"), e.getMessage());
      assertNull(e.getCause());
    }
  }

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

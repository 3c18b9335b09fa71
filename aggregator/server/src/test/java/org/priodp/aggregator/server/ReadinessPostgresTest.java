package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.Fixture;

/**
 * GET /readyz against PostgreSQL that goes away and comes back, without touching the shared
 * server: the store talks to a TCP forwarder on 127.0.0.1 that the test closes (refusing new
 * connections and cutting the open ones, as a database restart would) and reopens on the same
 * port. Skipped without PRIODP_PG_URL.
 */
class ReadinessPostgresTest {
  private static final Pattern HOST_PORT =
      Pattern.compile("^jdbc:postgresql://([^/:?]+)(?::(\\d+))?(/.*)$");

  /** Forwards every connection accepted on a loopback port to the database. */
  static final class Forwarder implements AutoCloseable {
    private final InetSocketAddress target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket listener;
    private int port;

    Forwarder(InetSocketAddress target) {
      this.target = target;
    }

    synchronized int open() throws IOException {
      ServerSocket s = new ServerSocket();
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      port = s.getLocalPort();
      listener = s;
      Thread t = new Thread(() -> accept(s), "pg-forwarder-accept");
      t.setDaemon(true);
      t.start();
      return port;
    }

    private void accept(ServerSocket s) {
      while (!s.isClosed()) {
        try {
          Socket client = s.accept();
          Socket server = new Socket(target.getAddress(), target.getPort());
          open.add(client);
          open.add(server);
          pump(client, server);
          pump(server, client);
        } catch (IOException e) {
          return; // closed
        }
      }
    }

    private void pump(Socket from, Socket to) {
      Thread t = new Thread(() -> {
        byte[] buf = new byte[8192];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
          int n;
          while ((n = in.read(buf)) >= 0) {
            out.write(buf, 0, n);
            out.flush();
          }
        } catch (IOException e) {
          // one side went away
        } finally {
          closeQuietly(from);
          closeQuietly(to);
        }
      }, "pg-forwarder-pump");
      t.setDaemon(true);
      t.start();
    }

    /** Stops listening and cuts every forwarded connection. */
    synchronized void down() throws IOException {
      listener.close();
      for (Socket s : open) {
        closeQuietly(s);
      }
      open.clear();
    }

    private static void closeQuietly(Socket s) {
      try {
        s.close();
      } catch (IOException e) {
        // already closed
      }
    }

    @Override
    public void close() throws IOException {
      down();
    }
  }

  @Test
  void readyzIs503WhilePostgresqlIsUnreachableAnd200AfterItReturns() throws Exception {
    String url = System.getenv("PRIODP_PG_URL");
    if (url == null || url.isBlank()) {
      System.out.println("SKIPPED ReadinessPostgresTest: PRIODP_PG_URL is not set");
    }
    Assumptions.assumeTrue(url != null && !url.isBlank(), "PRIODP_PG_URL is not set");
    Matcher m = HOST_PORT.matcher(url);
    Assumptions.assumeTrue(m.matches(), "PRIODP_PG_URL is not jdbc:postgresql://HOST[:PORT]/...");
    InetSocketAddress target = new InetSocketAddress(m.group(1),
        m.group(2) == null ? 5432 : Integer.parseInt(m.group(2)));
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    try (Forwarder forwarder = new Forwarder(target)) {
      int proxyPort = forwarder.open();
      String viaProxy = "jdbc:postgresql://127.0.0.1:" + proxyPort + m.group(3);
      try (JdbcDatastore store = JdbcDatastore.open(viaProxy)) {
        Fixture f = Fixture.laplace(70);
        Aggregator server = Aggregator.start(
            AggregatorConfig.builder(List.of(f.task), store).build());
        int port = server.port();
        HttpRequest readyz = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
            + "/readyz")).timeout(Duration.ofSeconds(90)).build();
        HttpRequest healthz = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
            + "/healthz")).timeout(Duration.ofSeconds(90)).build();
        try {
          HttpResponse<String> up = client.send(readyz, HttpResponse.BodyHandlers.ofString());
          assertEquals(200, up.statusCode(), up.body());
          assertEquals("{\"status\":\"ready\"}", up.body());

          forwarder.down();
          HttpResponse<String> down = client.send(readyz, HttpResponse.BodyHandlers.ofString());
          assertEquals(503, down.statusCode(), down.body());
          assertEquals("application/problem+json",
              down.headers().firstValue("Content-Type").orElse(""));
          assertTrue(down.body().contains("the store does not answer"), down.body());
          assertEquals(200, client.send(healthz, HttpResponse.BodyHandlers.discarding())
              .statusCode(), "liveness does not depend on the store");

          forwarder.open();
          HttpResponse<String> back = client.send(readyz, HttpResponse.BodyHandlers.ofString());
          assertEquals(200, back.statusCode(), back.body());
        } finally {
          server.close();
        }
      }
    }
  }
}

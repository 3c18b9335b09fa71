package org.priodp.aggregator.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * A TLS server on 127.0.0.1 whose certificate is self-signed, so no default trust store trusts
 * it (RFC 8446 section 4.4.2: the client must reject an untrusted chain): it accepts connections
 * and runs the handshake, which the client aborts. The key pair and certificate come from the
 * JDK's keytool into a temporary PKCS#12 file.
 */
public final class UntrustedTlsServer implements AutoCloseable {
  private static final char[] PASSWORD = "changeit".toCharArray();
  private final SSLServerSocket socket;
  private final Thread acceptor;

  private UntrustedTlsServer(SSLServerSocket socket) {
    this.socket = socket;
    this.acceptor = new Thread(this::acceptAll, "untrusted-tls-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Starts the server on a free port of 127.0.0.1, with a certificate made in {@code dir}. */
  public static UntrustedTlsServer start(Path dir) throws Exception {
    Path store = dir.resolve("untrusted-server.p12");
    Files.deleteIfExists(store);
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-alias", "server",
        "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
        "-ext", "san=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12",
        "-keystore", store.toString(), "-storepass", new String(PASSWORD)))
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IllegalStateException("keytool failed: " + out);
    }
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, PASSWORD);
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, PASSWORD);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), null, null);
    SSLServerSocket s = (SSLServerSocket) ctx.getServerSocketFactory()
        .createServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    return new UntrustedTlsServer(s);
  }

  /** Returns the base URL, {@code https://127.0.0.1:PORT/}. */
  public String url() {
    return "https://127.0.0.1:" + socket.getLocalPort() + "/";
  }

  private void acceptAll() {
    while (!socket.isClosed()) {
      try (Socket c = socket.accept()) {
        ((SSLSocket) c).startHandshake(); // the client aborts it
      } catch (IOException e) {
        // the client's alert, or the socket closed by close()
      }
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}

package org.priodp.aggregator.server;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import org.priodp.aggregator.core.CollectorAuthorization;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigList;

/**
 * Asks a collector identity URL whether it authorizes a Collector HPKE configuration, the URL
 * option of draft-ietf-ppm-dap-attribution-00 section 6.1: a GET of {@code {identity}/hpke_config}
 * (DAP-19 "HPKE Configuration Request") over HTTPS, authenticated by the given SSL context (in
 * production the JVM's default, the trust store {@code -Djavax.net.ssl.trustStore} that the
 * Leader also uses to reach its Helper). The configuration is {@link
 * CollectorAuthorization.Confirmed confirmed} iff the answer is status 200 with media type {@code
 * application/ppm-dap;message=hpke-config-list} and a well-formed HpkeConfigList of which one
 * entry equals the configuration byte for byte (config id, KEM, KDF, AEAD, public key). A list
 * without it is {@link CollectorAuthorization.Denied denied}, and so is an identity that is not an
 * absolute https URL (plain http authenticates nobody). Anything else (no connection, an untrusted
 * certificate, another status, a redirect, which is not followed, another media type, a body that
 * does not decode or exceeds the list's 65537 bytes) is {@link CollectorAuthorization.Unconfirmed
 * unconfirmed}. Every reason is one line naming the URL. Nothing is cached here ({@link
 * org.priodp.aggregator.core.CachedCollectorAuthorization} does). Thread-safe.
 */
public final class HttpsCollectorAuthorization implements CollectorAuthorization {
  /** How long one GET of the identity may take, connection included. */
  public static final Duration TIMEOUT = Duration.ofSeconds(10);
  /** The largest body read: an HpkeConfigList's two length bytes and at most 2^16-1 more. */
  private static final int MAX_BODY = 2 + 0xffff;

  private final java.util.function.Supplier<SSLContext> tls;
  /** The HTTP client, built on first use (an aggregator without identities never builds it). */
  private volatile HttpClient http;

  private HttpsCollectorAuthorization(java.util.function.Supplier<SSLContext> tls) {
    this.tls = tls;
  }

  /** Returns a client that trusts what {@code tls} trusts (tests pass a test CA's context). */
  public static HttpsCollectorAuthorization create(SSLContext tls) {
    Objects.requireNonNull(tls, "tls");
    return new HttpsCollectorAuthorization(() -> tls);
  }

  /**
   * Returns a client that trusts the JVM's trust store ({@code -Djavax.net.ssl.trustStore}), as
   * the Leader's client of the Helper does.
   */
  public static HttpsCollectorAuthorization systemDefault() {
    return new HttpsCollectorAuthorization(() -> {
      try {
        return SSLContext.getDefault();
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("the JVM has no default TLS context", e);
      }
    });
  }

  private HttpClient http() {
    HttpClient h = http;
    if (h == null) {
      synchronized (this) {
        h = http;
        if (h == null) {
          h = HttpClient.newBuilder().sslContext(tls.get())
              .version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT)
              .followRedirects(HttpClient.Redirect.NEVER).build();
          http = h;
        }
      }
    }
    return h;
  }

  /** Returns {@code {identity}/hpke_config}, the identity's trailing slash not doubled. */
  static URI hpkeConfigUri(URI identity) {
    String base = identity.toString();
    return URI.create((base.endsWith("/") ? base : base + "/") + "hpke_config");
  }

  @Override
  public Verdict check(URI identity, HpkeConfig collectorConfig) {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(collectorConfig, "collectorConfig");
    if (!identity.isAbsolute() || !"https".equalsIgnoreCase(identity.getScheme())
        || identity.getRawAuthority() == null) {
      return new Denied("collector identity " + identity + " is not an https URL: only an"
          + " authenticated answer can authorize a key");
    }
    URI uri = hpkeConfigUri(identity);
    HttpRequest req = HttpRequest.newBuilder(uri).timeout(TIMEOUT)
        .header("Accept", DapMediaType.HPKE_CONFIG_LIST.contentType()).GET().build();
    HttpResponse<InputStream> r;
    byte[] body;
    try {
      r = http().send(req, HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = r.body()) {
        body = in.readNBytes(MAX_BODY + 1);
      }
    } catch (IOException e) {
      return new Unconfirmed(transportFailure(e, uri));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Unconfirmed("GET " + uri + " was interrupted");
    }
    if (r.statusCode() != 200) {
      return new Unconfirmed("GET " + uri + " answered HTTP " + r.statusCode()
          + (r.statusCode() / 100 == 3 ? " (redirects are not followed)" : "")
          + ", not 200 with an HpkeConfigList");
    }
    String ct = r.headers().firstValue("Content-Type").orElse("");
    if (!isHpkeConfigList(ct)) {
      return new Unconfirmed("GET " + uri + " answered Content-Type "
          + (ct.isEmpty() ? "(none)" : "\"" + ct + "\"") + ", not "
          + DapMediaType.HPKE_CONFIG_LIST.contentType());
    }
    if (body.length > MAX_BODY) {
      return new Unconfirmed("GET " + uri + " answered more than " + MAX_BODY
          + " bytes: not an HpkeConfigList");
    }
    HpkeConfigList list;
    try {
      list = HpkeConfigList.decode(body);
    } catch (IllegalArgumentException e) { // DapDecodeException included
      return new Unconfirmed("GET " + uri + " answered a body that is not an HpkeConfigList: "
          + e.getMessage());
    }
    byte[] mine = collectorConfig.encode();
    for (HpkeConfig c : list.configs()) {
      if (Arrays.equals(c.encode(), mine)) {
        return new Confirmed();
      }
    }
    return new Denied(uri + " does not list the task's collector_hpke_config (id "
        + collectorConfig.id().value() + ", public key " + keyPrefix(collectorConfig) + "...)"
        + nearest(list, collectorConfig) + "; it lists id(s) " + list.configs().stream()
        .map(c -> String.valueOf(c.id().value())).collect(Collectors.joining(", ")));
  }

  /** Returns whether a Content-Type is DAP's hpke-config-list (RFC 9110 media type rules). */
  private static boolean isHpkeConfigList(String contentType) {
    try {
      MediaType m = MediaType.parse(contentType);
      return m.is("application", "ppm-dap")
          && DapMediaType.HPKE_CONFIG_LIST.message().equals(m.parameter("message"));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** Names what differs when a listed config has the same public key or the same id. */
  private static String nearest(HpkeConfigList list, HpkeConfig mine) {
    for (HpkeConfig c : list.configs()) {
      if (c.publicKey().equals(mine.publicKey())) {
        return ": the same public key is listed as id " + c.id().value()
            + (c.id().equals(mine.id()) ? " with other algorithms" : "");
      }
    }
    for (HpkeConfig c : list.configs()) {
      if (c.id().equals(mine.id())) {
        return ": id " + c.id().value() + " is listed with another public key ("
            + keyPrefix(c) + "...)";
      }
    }
    return "";
  }

  private static String keyPrefix(HpkeConfig c) {
    byte[] pk = c.publicKey().toByteArray();
    return HexFormat.of().formatHex(pk, 0, Math.min(8, pk.length));
  }

  /**
   * Returns one line for a failure below HTTP: an untrusted certificate names the trust store,
   * a refused connection the URL, anything else the URL and the reason.
   */
  static String transportFailure(IOException e, URI uri) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.security.cert.CertificateException
          || t instanceof java.security.cert.CertPathBuilderException
          || t instanceof java.security.cert.CertPathValidatorException) {
        return "TLS to " + uri.getScheme() + "://" + uri.getRawAuthority() + "/ failed: the"
            + " collector identity's certificate is not trusted; give the aggregator's JVM a"
            + " trust store with its CA (JAVA_OPTS=-Djavax.net.ssl.trustStore=FILE,"
            + " docs/DEPLOY.md section 4)";
      }
    }
    if (e instanceof java.net.http.HttpTimeoutException) {
      return "no answer to GET " + uri + " within " + TIMEOUT.toSeconds() + " s";
    }
    if (e instanceof java.net.ConnectException) {
      return "cannot connect to " + uri + ": connection refused";
    }
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return "GET " + uri + " failed: " + m.replace('\n', ' ');
  }
}

package org.priodp.aggregator.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;

/**
 * The HTTP details shared by the Client and the Collector (DAP-18 "HTTP Usage"): resource URLs
 * under an aggregator's base URL (which may carry a path), request timeouts, and errors that say
 * which party failed.
 */
final class DapHttp {
  /** How long one request may take before it fails. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private DapHttp() {
  }

  /**
   * Returns {@code {endpoint}/{path}}: DAP-18 appends the resource path to the base URL, whose
   * trailing slash (if any) is not doubled.
   */
  static URI resource(String endpoint, String path) {
    String base = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
    return URI.create(base + "/" + path);
  }

  /** Returns true if two URIs have the same scheme, host and port (the same origin). */
  static boolean sameOrigin(URI a, URI b) {
    return a.getScheme() != null && a.getScheme().equalsIgnoreCase(b.getScheme())
        && a.getHost() != null && a.getHost().equalsIgnoreCase(b.getHost())
        && port(a) == port(b);
  }

  private static int port(URI u) {
    if (u.getPort() >= 0) {
      return u.getPort();
    }
    return u.getScheme().toLowerCase(Locale.ROOT).equals("https") ? 443 : 80;
  }

  /**
   * Sends a request; a failure to connect or a timeout becomes an IOException that names
   * {@code who} and the URL.
   */
  static HttpResponse<byte[]> send(HttpClient http, HttpRequest request, String who)
      throws IOException, InterruptedException {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (java.net.http.HttpTimeoutException e) {
      throw new IOException(who + " did not answer " + request.method() + " " + request.uri()
          + " within " + REQUEST_TIMEOUT.toSeconds() + " s", e);
    } catch (IOException e) {
      IOException described = new IOException(transportFailure(e, request.uri(), who));
      described.addSuppressed(e); // kept for --verbose; the message is the whole story
      throw described;
    }
  }

  /**
   * Returns one line that names the URL and the fix of a request that failed below HTTP (DAP-18
   * "HTTP Usage" requires HTTPS): an untrusted certificate names the trust store, a refused
   * connection asks whether {@code who} runs, anything else gives the URL and the reason.
   */
  static String transportFailure(IOException e, URI uri, String who) {
    String origin = uri.getScheme() + "://" + uri.getHost()
        + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + "/";
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.security.cert.CertificateException
          || t instanceof java.security.cert.CertPathBuilderException
          || t instanceof java.security.cert.CertPathValidatorException) {
        return "TLS to " + origin + " failed: " + who + "'s certificate is not trusted; give the"
            + " JVM a trust store with its CA: JAVA_OPTS=\"-Djavax.net.ssl.trustStore=FILE"
            + " -Djavax.net.ssl.trustStorePassword=PASSWORD\" (docs/DEPLOY.md, section 4)";
      }
      if (t instanceof java.nio.channels.UnresolvedAddressException
          || t instanceof java.net.UnknownHostException) {
        return "cannot connect to " + uri + ": unknown host " + uri.getHost();
      }
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof javax.net.ssl.SSLException) {
        return "TLS to " + origin + " failed: " + t.getMessage();
      }
    }
    if (e instanceof java.net.ConnectException) {
      return "cannot connect to " + uri + ": connection refused; is " + who + " running?";
    }
    return "the connection to " + who + " at " + uri + " failed: "
        + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
  }

  /** Returns true for a 2xx status (DAP-18 "HTTP Status Codes": any code of the class). */
  static boolean success(int status) {
    return status >= 200 && status < 300;
  }

  /** Returns the POST of an UploadRequest of the reports to {@code uri} (DAP-19 "Upload Request"). */
  static HttpRequest uploadPost(URI uri, java.util.List<org.priodp.aggregator.dap.Report> reports) {
    return HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT)
        .header("Content-Type", org.priodp.aggregator.dap.DapMediaType.UPLOAD_REQ.contentType())
        .POST(HttpRequest.BodyPublishers.ofByteArray(
            new org.priodp.aggregator.dap.UploadRequest(reports).encode()))
        .build();
  }

  /** Returns the refused reports of a successful upload's answer (empty body: none). */
  static java.util.List<org.priodp.aggregator.dap.ReportUploadStatus> uploadErrors(
      HttpResponse<byte[]> r, org.priodp.aggregator.dap.DapVersion version) throws IOException {
    if (r.body().length == 0) {
      return java.util.List.of();
    }
    try {
      return org.priodp.aggregator.dap.UploadErrors.decode(r.body(), version).status();
    } catch (org.priodp.aggregator.dap.DapDecodeException e) {
      throw new IOException("the Leader's answer to the upload is not an UploadErrors: "
          + e.getMessage(), e);
    }
  }
}

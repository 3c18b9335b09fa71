package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.CollectorAuthorization;
import org.priodp.aggregator.core.CollectorAuthorization.Confirmed;
import org.priodp.aggregator.core.CollectorAuthorization.Denied;
import org.priodp.aggregator.core.CollectorAuthorization.Unconfirmed;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.hpke.HpkeAeadId;
import org.priodp.aggregator.hpke.HpkeKdfId;
import org.priodp.aggregator.hpke.HpkeKemId;
import org.priodp.aggregator.testing.FakeHttp;
import org.priodp.aggregator.testing.SpecTls;
import org.priodp.aggregator.testing.UntrustedTlsServer;

/**
 * The URL option of draft-ietf-ppm-dap-attribution-00 section 6.1 against a local HTTPS collector
 * identity whose certificate a test CA issued: its {@code hpke_config} answer is written here from
 * DAP-19's struct definitions ("HPKE Configuration Request": {@code HpkeConfig
 * HpkeConfigList<10..2^16-1>}, each {@code {uint8 id; uint16 kem_id; uint16 kdf_id; uint16
 * aead_id; opaque public_key<1..2^16-1>}}), never with the project's encoder.
 */
class HttpsCollectorAuthorizationTest {
  private static final String MEDIA_TYPE = "application/ppm-dap;message=hpke-config-list";
  private static final int X25519 = 0x0020;
  private static final int HKDF_SHA256 = 0x0001;
  private static final int AES_128_GCM = 0x0001;

  @TempDir
  static Path dir;
  private static TestCertificates.Issued identityCert;
  private static SSLContext trustsIdentity;

  @BeforeAll
  static void certificates() throws Exception {
    identityCert = TestCertificates.issue(dir, "identity", "EC");
    trustsIdentity = identityCert.trustingContext();
  }

  private static byte[] key(int fill) {
    byte[] pk = new byte[32];
    Arrays.fill(pk, (byte) fill);
    return pk;
  }

  /** The task's collector_hpke_config as the aggregator holds it. */
  private static final HpkeConfig TASK_KEY = new HpkeConfig(new HpkeConfigId(7),
      HpkeKemId.DHKEM_X25519_HKDF_SHA256, HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM, key(0x42));

  /** One HpkeConfig as DAP-19 defines it. */
  private static byte[] specConfig(int id, int kem, int kdf, int aead, byte[] publicKey) {
    return new SpecTls().u8(id).u16(kem).u16(kdf).u16(aead).opaque16(publicKey).bytes();
  }

  /** An HpkeConfigList: a 2-byte length, then the configs. */
  private static byte[] specList(byte[]... configs) {
    SpecTls inner = new SpecTls();
    for (byte[] c : configs) {
      inner.raw(c);
    }
    return new SpecTls().opaque16(inner.bytes()).bytes();
  }

  private static Function<FakeHttp.Request, FakeHttp.Response> answer(int status,
      String contentType, byte[] body) {
    return req -> req.path().equals("/collector/hpke_config") && req.method().equals("GET")
        ? new FakeHttp.Response(status, contentType == null ? Map.of()
            : Map.of("Content-Type", contentType), body)
        : FakeHttp.Response.of(404, new byte[0]);
  }

  private static CollectorAuthorization.Verdict check(
      Function<FakeHttp.Request, FakeHttp.Response> handler) throws Exception {
    try (FakeHttp identity = new FakeHttp(identityCert.serverContext(), handler)) {
      return HttpsCollectorAuthorization.create(trustsIdentity)
          .check(URI.create(identity.url() + "/collector/"), TASK_KEY);
    }
  }

  @Test
  void aListHoldingTheTaskKeyConfirmsIt() throws Exception {
    byte[] other = specConfig(3, X25519, HKDF_SHA256, AES_128_GCM, key(0x11));
    byte[] mine = specConfig(7, X25519, HKDF_SHA256, AES_128_GCM, key(0x42));
    assertInstanceOf(Confirmed.class, check(answer(200, MEDIA_TYPE, specList(other, mine))));
    assertInstanceOf(Confirmed.class,
        check(answer(200, "application/ppm-dap; message=\"hpke-config-list\"", specList(mine))),
        "media type parameters as RFC 9110 allows");
  }

  @Test
  void theIdentityIsAskedAtItsHpkeConfigResourceWithoutADoubledSlash() throws Exception {
    byte[] mine = specConfig(7, X25519, HKDF_SHA256, AES_128_GCM, key(0x42));
    try (FakeHttp identity = new FakeHttp(identityCert.serverContext(),
        answer(200, MEDIA_TYPE, specList(mine)))) {
      var auth = HttpsCollectorAuthorization.create(trustsIdentity);
      assertInstanceOf(Confirmed.class, auth.check(URI.create(identity.url() + "/collector"),
          TASK_KEY));
      assertInstanceOf(Confirmed.class, auth.check(URI.create(identity.url() + "/collector/"),
          TASK_KEY));
      assertEquals(2, identity.requests.size());
      for (FakeHttp.Request r : identity.requests) {
        assertEquals("/collector/hpke_config", r.path());
      }
    }
  }

  @Test
  void aListWithAnotherPublicKeyDeniesTheTaskKeyInOneLine() throws Exception {
    byte[] other = specConfig(7, X25519, HKDF_SHA256, AES_128_GCM, key(0x43));
    Denied d = assertInstanceOf(Denied.class, check(answer(200, MEDIA_TYPE, specList(other))));
    assertTrue(d.reason().contains("/collector/hpke_config does not list the task's"
        + " collector_hpke_config (id 7, public key 4242424242424242...)"), d.reason());
    assertTrue(d.reason().contains("id 7 is listed with another public key (4343434343434343"),
        d.reason());
    assertEquals(1, d.reason().lines().count());
  }

  @Test
  void theSameKeyUnderAnotherConfigIdIsDenied() throws Exception {
    byte[] sameKeyOtherId = specConfig(8, X25519, HKDF_SHA256, AES_128_GCM, key(0x42));
    Denied d = assertInstanceOf(Denied.class,
        check(answer(200, MEDIA_TYPE, specList(sameKeyOtherId))));
    assertTrue(d.reason().contains("the same public key is listed as id 8"), d.reason());
    assertTrue(d.reason().endsWith("it lists id(s) 8"), d.reason());
  }

  @Test
  void theSameKeyWithOtherAlgorithmsIsDenied() throws Exception {
    byte[] otherAead = specConfig(7, X25519, HKDF_SHA256, 0x0002, key(0x42));
    Denied d = assertInstanceOf(Denied.class, check(answer(200, MEDIA_TYPE, specList(otherAead))));
    assertTrue(d.reason().contains("listed as id 7 with other algorithms"), d.reason());
  }

  @Test
  void anUntrustedCertificateIsUnconfirmedAndNamesTheTrustStore() throws Exception {
    TestCertificates.Issued stranger = TestCertificates.issue(dir, "stranger", "EC");
    byte[] mine = specConfig(7, X25519, HKDF_SHA256, AES_128_GCM, key(0x42));
    try (FakeHttp identity = new FakeHttp(stranger.serverContext(),
        answer(200, MEDIA_TYPE, specList(mine)))) {
      var v = HttpsCollectorAuthorization.create(trustsIdentity)
          .check(URI.create(identity.url() + "/collector/"), TASK_KEY);
      Unconfirmed u = assertInstanceOf(Unconfirmed.class, v,
          "the right list from a server the trust store does not vouch for authorizes nothing");
      assertTrue(u.reason().contains("certificate is not trusted"), u.reason());
      assertTrue(u.reason().contains("javax.net.ssl.trustStore"), u.reason());
    }
    try (UntrustedTlsServer selfSigned = UntrustedTlsServer.start(dir)) {
      var v = HttpsCollectorAuthorization.create(trustsIdentity)
          .check(URI.create(selfSigned.url()), TASK_KEY);
      assertInstanceOf(Unconfirmed.class, v);
    }
  }

  @Test
  void aPlainHttpIdentityIsDeniedWithoutAsking() throws Exception {
    byte[] mine = specConfig(7, X25519, HKDF_SHA256, AES_128_GCM, key(0x42));
    try (FakeHttp plain = new FakeHttp(answer(200, MEDIA_TYPE, specList(mine)))) {
      Denied d = assertInstanceOf(Denied.class, HttpsCollectorAuthorization
          .create(trustsIdentity).check(URI.create(plain.url() + "/collector/"), TASK_KEY));
      assertTrue(d.reason().contains("is not an https URL"), d.reason());
      assertEquals(0, plain.requests.size(), "nothing is fetched over plain http");
    }
  }

  @Test
  void anErrorStatusIsUnconfirmedWithTheStatus() throws Exception {
    for (int status : new int[] {404, 500, 301, 204}) {
      Unconfirmed u = assertInstanceOf(Unconfirmed.class,
          check(answer(status, MEDIA_TYPE, status == 204 ? new byte[0] : "x".getBytes(
              StandardCharsets.US_ASCII))), "status " + status);
      assertTrue(u.reason().contains("/collector/hpke_config answered HTTP " + status),
          u.reason());
    }
  }

  @Test
  void aWrongMediaTypeIsUnconfirmed() throws Exception {
    byte[] list = specList(specConfig(7, X25519, HKDF_SHA256, AES_128_GCM, key(0x42)));
    for (String ct : new String[] {"application/octet-stream",
        "application/ppm-dap;message=upload-req", "application/ppm-dap", null}) {
      Unconfirmed u = assertInstanceOf(Unconfirmed.class, check(answer(200, ct, list)),
          "Content-Type " + ct);
      assertTrue(u.reason().contains("answered Content-Type"), u.reason());
      assertTrue(u.reason().contains("not " + MEDIA_TYPE), u.reason());
    }
  }

  @Test
  void aBodyThatIsNotAnHpkeConfigListIsUnconfirmed() throws Exception {
    byte[] mine = specConfig(7, X25519, HKDF_SHA256, AES_128_GCM, key(0x42));
    byte[] truncated = Arrays.copyOf(specList(mine), specList(mine).length - 1);
    Unconfirmed u = assertInstanceOf(Unconfirmed.class,
        check(answer(200, MEDIA_TYPE, truncated)));
    assertTrue(u.reason().contains("not an HpkeConfigList"), u.reason());
    byte[] trailing = Arrays.copyOf(specList(mine), specList(mine).length + 1);
    assertInstanceOf(Unconfirmed.class, check(answer(200, MEDIA_TYPE, trailing)));
  }

  @Test
  void anUnreachableIdentityIsUnconfirmed() throws Exception {
    int port;
    try (FakeHttp gone = new FakeHttp(identityCert.serverContext(), r -> null)) {
      port = URI.create(gone.url()).getPort();
    }
    Unconfirmed u = assertInstanceOf(Unconfirmed.class, HttpsCollectorAuthorization
        .create(trustsIdentity).check(URI.create("https://127.0.0.1:" + port + "/"), TASK_KEY));
    assertTrue(u.reason().contains("https://127.0.0.1:" + port + "/hpke_config"), u.reason());
  }
}

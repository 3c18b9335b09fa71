package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsCredentialsTest {
  @TempDir
  Path dir;

  private String refusal(Path cert, Path key) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TlsCredentials.load(cert, key));
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    return e.getMessage();
  }

  @Test
  void loadsRsaAndEcKeysInPkcs8AndTraditionalPem() throws Exception {
    for (String alg : new String[] {"RSA", "EC"}) {
      TestCertificates.Issued i = TestCertificates.issue(dir, alg, alg);
      assertEquals(i.certificate(), TlsCredentials.load(i.certFile(), i.keyFile()).certificate());
      // PKCS#1 "BEGIN RSA PRIVATE KEY" / SEC1 "BEGIN EC PRIVATE KEY", as openssl used to write
      Path traditional = dir.resolve(alg + ".traditional.pem");
      Files.writeString(traditional, TestCertificates.pem(i.keys().getPrivate()));
      assertTrue(Files.readString(traditional).contains("BEGIN " + alg + " PRIVATE KEY"));
      assertEquals(i.certificate(), TlsCredentials.load(i.certFile(), traditional).certificate());
    }
  }

  @Test
  void everyProblemIsOneLineNamingTheFileAndTheReason() throws Exception {
    TestCertificates.Issued a = TestCertificates.issue(dir, "a", "RSA");
    TestCertificates.Issued b = TestCertificates.issue(dir, "b", "RSA");
    Path missing = dir.resolve("missing.pem");
    Path text = dir.resolve("text.pem");
    Files.writeString(text, "hello\n", StandardCharsets.US_ASCII);
    Path broken = dir.resolve("broken.pem");
    Files.writeString(broken, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");

    String m = refusal(missing, a.keyFile());
    assertTrue(m.equals("TLS certificate " + missing + ": no such file"), m);
    m = refusal(a.certFile(), missing);
    assertTrue(m.equals("TLS key " + missing + ": no such file"), m);
    m = refusal(text, a.keyFile());
    assertTrue(m.startsWith("TLS certificate " + text + ": no -----BEGIN CERTIFICATE-----"), m);
    m = refusal(broken, a.keyFile());
    assertTrue(m.startsWith("TLS certificate " + broken + ": not a valid PEM certificate"), m);
    m = refusal(a.certFile(), text);
    assertTrue(m.startsWith("TLS key " + text + ": not a usable PEM private key"), m);
    m = refusal(a.certFile(), a.certFile());
    assertTrue(m.startsWith("TLS key " + a.certFile() + ": not a usable PEM private key"), m);
    m = refusal(a.certFile(), b.keyFile());
    assertEquals("TLS key " + b.keyFile() + ": does not belong to the first certificate in "
        + a.certFile(), m);
  }
}

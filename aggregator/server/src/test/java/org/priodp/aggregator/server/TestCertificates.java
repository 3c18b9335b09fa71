package org.priodp.aggregator.server;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Date;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** Self-signed server certificates for 127.0.0.1 made inside the test (Bouncy Castle). */
final class TestCertificates {
  private TestCertificates() {}

  /** A key pair, its certificate and the two PEM files. */
  record Issued(KeyPair keys, X509Certificate certificate, Path certFile, Path keyFile) {
    /** Returns a client SSL context that trusts only this certificate. */
    SSLContext trustingContext() throws Exception {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      ks.setCertificateEntry("server", certificate);
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(ks);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), new SecureRandom());
      return ctx;
    }

    /** Returns a server SSL context that presents this key and certificate. */
    SSLContext serverContext() throws Exception {
      char[] password = "changeit".toCharArray();
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      ks.setKeyEntry("server", keys.getPrivate(), password,
          new java.security.cert.Certificate[] {certificate});
      javax.net.ssl.KeyManagerFactory kmf = javax.net.ssl.KeyManagerFactory.getInstance(
          javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, password);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(kmf.getKeyManagers(), null, new SecureRandom());
      return ctx;
    }
  }

  /** Issues an RSA (or EC) certificate for CN=localhost, IP 127.0.0.1, valid for a day. */
  static Issued issue(Path dir, String name, String algorithm) throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance(algorithm);
    g.initialize(algorithm.equals("EC") ? 256 : 2048);
    KeyPair keys = g.generateKeyPair();
    long now = System.currentTimeMillis();
    JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(new X500Name("CN=localhost"),
        BigInteger.valueOf(now), new Date(now - 60_000), new Date(now + 86_400_000L),
        new X500Name("CN=localhost"), keys.getPublic());
    b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
        new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
        new GeneralName(GeneralName.dNSName, "localhost")}));
    String sigAlg = algorithm.equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
    X509Certificate cert = new JcaX509CertificateConverter()
        .getCertificate(b.build(new JcaContentSignerBuilder(sigAlg).build(keys.getPrivate())));
    Path certFile = dir.resolve(name + ".crt.pem");
    Path keyFile = dir.resolve(name + ".key.pem");
    Files.writeString(certFile, pem(cert), StandardCharsets.US_ASCII);
    // PKCS#8 ("BEGIN PRIVATE KEY"), the format most tools write today
    Files.writeString(keyFile, pem(new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(
        keys.getPrivate(), null)), StandardCharsets.US_ASCII);
    return new Issued(keys, cert, certFile, keyFile);
  }

  static String pem(Object o) throws IOException {
    StringWriter s = new StringWriter();
    try (JcaPEMWriter w = new JcaPEMWriter(s)) {
      w.writeObject(o);
    }
    return s.toString();
  }
}

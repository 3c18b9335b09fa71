package org.priodp.aggregator.server;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.X509KeyManager;
import org.priodp.aggregator.server.internal.Causes;

/**
 * A server certificate chain and its private key, read once from PEM files and checked before the
 * server starts: the certificate file must hold at least one X.509 certificate (the server's
 * first, then its chain), the key file a PKCS#8 ({@code BEGIN PRIVATE KEY}), PKCS#1 ({@code BEGIN
 * RSA PRIVATE KEY}) or SEC1 ({@code BEGIN EC PRIVATE KEY}) key that belongs to the first
 * certificate. Every problem is an IllegalArgumentException whose message names the file and the
 * reason on one line.
 */
public final class TlsCredentials {
  private final Path certFile;
  private final Path keyFile;
  private final byte[] certPem;
  private final byte[] keyPem;
  private final X509Certificate certificate;

  private TlsCredentials(Path certFile, Path keyFile, byte[] certPem, byte[] keyPem,
      X509Certificate certificate) {
    this.certFile = certFile;
    this.keyFile = keyFile;
    this.certPem = certPem;
    this.keyPem = keyPem;
    this.certificate = certificate;
  }

  /** Reads and checks the two PEM files. */
  public static TlsCredentials load(Path certFile, Path keyFile) {
    Objects.requireNonNull(certFile, "certFile");
    Objects.requireNonNull(keyFile, "keyFile");
    byte[] cert = read(certFile, "TLS certificate");
    byte[] rawKey = read(keyFile, "TLS key");
    List<X509Certificate> chain = parseCertificates(cert, certFile);
    byte[] key = sec1ToPkcs8(rawKey, keyFile, chain.get(0));
    PrivateKey privateKey = parseKey(cert, key, keyFile);
    X509Certificate leaf = chain.get(0);
    if (!matches(privateKey, leaf)) {
      throw new IllegalArgumentException("TLS key " + keyFile + ": does not belong to the first"
          + " certificate in " + certFile);
    }
    return new TlsCredentials(certFile, keyFile, cert, key, leaf);
  }

  private static byte[] read(Path file, String what) {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(what + " " + file + ": no such file", e);
    } catch (AccessDeniedException e) {
      throw new IllegalArgumentException(what + " " + file + ": permission denied", e);
    } catch (IOException e) {
      throw new IllegalArgumentException(what + " " + file + ": cannot read: "
          + Causes.message(e), e);
    }
  }

  private static List<X509Certificate> parseCertificates(byte[] pem, Path file) {
    String text = new String(pem, StandardCharsets.ISO_8859_1);
    if (!text.contains("-----BEGIN CERTIFICATE-----")) {
      throw new IllegalArgumentException("TLS certificate " + file
          + ": no -----BEGIN CERTIFICATE----- block (PEM expected)");
    }
    List<X509Certificate> out = new ArrayList<>();
    try {
      for (Certificate c : CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(pem))) {
        out.add((X509Certificate) c);
      }
    } catch (CertificateException | RuntimeException e) {
      throw new IllegalArgumentException("TLS certificate " + file + ": not a valid PEM"
          + " certificate: " + Causes.describe(e), e);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("TLS certificate " + file + ": no certificate found");
    }
    return out;
  }

  private static final String SEC1_BEGIN = "-----BEGIN EC PRIVATE KEY-----";
  private static final String SEC1_END = "-----END EC PRIVATE KEY-----";

  /**
   * Rewrites a SEC1 {@code EC PRIVATE KEY} block (what {@code openssl ecparam -genkey} writes) as
   * PKCS#8, which Vert.x reads reliably; other keys are returned unchanged. A SEC1 key without
   * curve parameters takes those of the certificate's public key (they must match anyway).
   */
  private static byte[] sec1ToPkcs8(byte[] pem, Path file, X509Certificate cert) {
    String text = new String(pem, StandardCharsets.ISO_8859_1);
    int begin = text.indexOf(SEC1_BEGIN);
    int end = text.indexOf(SEC1_END);
    if (begin < 0 || end < begin) {
      return pem;
    }
    try {
      byte[] der = java.util.Base64.getMimeDecoder().decode(
          text.substring(begin + SEC1_BEGIN.length(), end));
      org.bouncycastle.asn1.sec.ECPrivateKey sec1 =
          org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(der);
      org.bouncycastle.asn1.ASN1Encodable params = sec1.getParametersObject();
      if (params == null) {
        params = org.bouncycastle.asn1.x509.SubjectPublicKeyInfo.getInstance(
            cert.getPublicKey().getEncoded()).getAlgorithm().getParameters();
      }
      byte[] pkcs8 = new org.bouncycastle.asn1.pkcs.PrivateKeyInfo(
          new org.bouncycastle.asn1.x509.AlgorithmIdentifier(
              org.bouncycastle.asn1.x9.X9ObjectIdentifiers.id_ecPublicKey, params), sec1)
          .getEncoded();
      String out = "-----BEGIN PRIVATE KEY-----\n"
          + java.util.Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(pkcs8)
          + "\n-----END PRIVATE KEY-----\n";
      return out.getBytes(StandardCharsets.US_ASCII);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("TLS key " + file + ": not a usable SEC1 EC private key: "
          + Causes.describe(e), e);
    }
  }

  /** Lets Vert.x parse the key exactly as the server will, then takes the key back out. */
  private static PrivateKey parseKey(byte[] certPem, byte[] keyPem, Path file) {
    try {
      KeyManagerFactory kmf = new PemKeyCertOptions().setCertValue(Buffer.buffer(certPem))
          .setKeyValue(Buffer.buffer(keyPem)).getKeyManagerFactory(null);
      for (KeyManager km : kmf.getKeyManagers()) {
        if (km instanceof X509KeyManager x) {
          for (String type : new String[] {"RSA", "EC", "EdDSA", "Ed25519", "Ed448", "DSA"}) {
            String[] aliases = x.getServerAliases(type, null);
            if (aliases != null && aliases.length > 0) {
              return x.getPrivateKey(aliases[0]);
            }
          }
        }
      }
    } catch (Exception e) {
      throw new IllegalArgumentException("TLS key " + file + ": not a usable PEM private key: "
          + Causes.describe(e), e);
    }
    throw new IllegalArgumentException("TLS key " + file + ": no private key found");
  }

  /** Signs a probe with the key and verifies it with the certificate's public key. */
  private static boolean matches(PrivateKey key, X509Certificate cert) {
    String alg = switch (key.getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "EC" -> "SHA256withECDSA";
      case "DSA" -> "SHA256withDSA";
      default -> key.getAlgorithm(); // Ed25519, Ed448, EdDSA sign without a separate digest
    };
    try {
      byte[] probe = "prio-dp TLS key check".getBytes(StandardCharsets.US_ASCII);
      Signature s = Signature.getInstance(alg);
      s.initSign(key);
      s.update(probe);
      byte[] sig = s.sign();
      Signature v = Signature.getInstance(alg);
      v.initVerify(cert.getPublicKey());
      v.update(probe);
      return v.verify(sig);
    } catch (java.security.GeneralSecurityException e) {
      return false;
    }
  }

  /** Returns the Vert.x options holding the PEM contents read at load time. */
  public PemKeyCertOptions keyCertOptions() {
    return new PemKeyCertOptions().setCertValue(Buffer.buffer(certPem))
        .setKeyValue(Buffer.buffer(keyPem));
  }

  /** Returns the server certificate (the first in the file). */
  public X509Certificate certificate() {
    return certificate;
  }

  /** Returns true if the server certificate is outside its validity period at {@code when}. */
  public boolean expiredOrNotYetValid(Date when) {
    try {
      certificate.checkValidity(when);
      return false;
    } catch (CertificateException e) {
      return true;
    }
  }

  /** Returns the certificate file. */
  public Path certFile() {
    return certFile;
  }

  /** Returns the key file. */
  public Path keyFile() {
    return keyFile;
  }
}

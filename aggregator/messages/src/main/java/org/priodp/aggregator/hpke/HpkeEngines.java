package org.priodp.aggregator.hpke;

import java.lang.System.Logger.Level;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.Optional;

/**
 * Holds the JCA-based RFC 9180 engines (section 5.1 base mode for DHKEM(X25519, HKDF-SHA256) /
 * HKDF-SHA256 / AES-128-GCM): on the JDK's own providers, on Bouncy Castle's or OpenSSL's X25519
 * with the JDK's HMAC and AES-GCM, and on the Amazon Corretto Crypto Provider (AWS-LC) when its
 * jar is on the class path. Native parts are found at run time (ACCP by reflection, used as a
 * provider instance and never installed in java.security; libcrypto through JNA); when one is
 * missing or fails, {@link #logFallback} writes one line and a slower engine is used.
 */
final class HpkeEngines {
  private static final String ACCP = "com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider";
  private static final System.Logger LOG = System.getLogger(Hpke.class.getName());

  private HpkeEngines() {}

  /** The engine on the JDK's providers (SunEC XDH, SunJCE HmacSHA256 and AES/GCM). */
  private static final class Jdk {
    static final JcaHpke ENGINE = create(null, "JDK (SunEC XDH, SunJCE HmacSHA256 and AES/GCM)");
  }

  /** The engine with Bouncy Castle's X25519 and the JDK's HmacSHA256 and AES/GCM. */
  private static final class Java {
    static final JcaHpke ENGINE = create(JcaHpke.BC_X25519,
        "Java (Bouncy Castle rfc7748 X25519, SunJCE HmacSHA256 and AES/GCM)");
  }

  /** The system's OpenSSL 3 X25519 through JNA: its version, or null and the reason. */
  private static final class LibCrypto {
    static String problem;
    static final String VERSION = load();

    private static String load() {
      try {
        return OpenSslX25519.version();
      } catch (RuntimeException | LinkageError e) {
        problem = "OpenSSL libcrypto 3 through JNA: " + e;
        return null;
      }
    }
  }

  /** The engine with OpenSSL's X25519 (libcrypto, JNA) and the JDK's HmacSHA256 and AES/GCM. */
  private static final class OpenSsl {
    static final JcaHpke ENGINE = LibCrypto.VERSION == null ? null
        : create(OpenSslX25519.RAW, "OpenSSL (" + LibCrypto.VERSION
            + " X25519 via JNA, SunJCE HmacSHA256 and AES/GCM)");
  }

  private static JcaHpke create(JcaHpke.RawX25519 raw, String name) {
    try {
      return new JcaHpke(null, null, raw, name);
    } catch (GeneralSecurityException | RuntimeException e) {
      LOG.log(Level.WARNING, "HPKE: the JDK lacks X25519, HmacSHA256 or AES/GCM (" + e
          + "); using Bouncy Castle");
      return null;
    }
  }

  /** The engine on the native provider, created on first use. */
  private static final class Native {
    static String problem;
    static final JcaHpke ENGINE = create();

    private static JcaHpke create() {
      String why;
      try {
        Class<?> c = Class.forName(ACCP);
        Provider p = (Provider) c.getField("INSTANCE").get(null);
        Throwable error = (Throwable) c.getMethod("getLoadingError").invoke(p);
        if (error == null) {
          String version = (String) c.getMethod("getVersionStr").invoke(p);
          // ACCP 2.5.0 has no X25519 (later versions add XDH): then OpenSSL's, else BC's
          boolean xdh = p.getService("KeyAgreement", "XDH") != null
              && p.getService("KeyFactory", "XDH") != null
              && p.getService("KeyPairGenerator", "X25519") != null;
          String x25519 = xdh ? "ACCP" : LibCrypto.VERSION != null ? LibCrypto.VERSION + " (JNA)"
              : "Bouncy Castle rfc7748";
          return new JcaHpke(p, xdh ? p : null, xdh ? null : LibCrypto.VERSION != null
              ? OpenSslX25519.RAW : JcaHpke.BC_X25519, "Amazon Corretto Crypto Provider "
              + version + " (AWS-LC HmacSHA256 and AES/GCM; X25519: " + x25519 + ")");
        }
        why = "its native library did not load: " + error;
      } catch (ClassNotFoundException e) {
        why = "it is not on the class path";
      } catch (ReflectiveOperationException | GeneralSecurityException | RuntimeException
          | LinkageError e) {
        why = "it failed: " + e;
      }
      problem = "Amazon Corretto Crypto Provider: " + why;
      return null;
    }
  }

  /**
   * Logs, once, which engine runs the X25519 suite when a native part is missing: the one line
   * the fallback writes (System.Logger, INFO).
   */
  static void logFallback(String chosen) {
    nativeEngine();
    String missing = java.util.stream.Stream.of(Native.problem, LibCrypto.problem)
        .filter(java.util.Objects::nonNull).collect(java.util.stream.Collectors.joining("; "));
    if (!missing.isEmpty()) {
      LOG.log(Level.INFO, "HPKE: DHKEM(X25519)/AES-128-GCM runs on " + chosen + "; not used: "
          + missing);
    }
  }

  /** Returns the engine on the JDK's providers, or empty if the JDK lacks a primitive. */
  static Optional<JcaHpke> jdk() {
    return Optional.ofNullable(Jdk.ENGINE);
  }

  /** Returns the engine on Bouncy Castle's X25519 and the JDK's HMAC and AES-GCM, or empty. */
  static Optional<JcaHpke> java() {
    return Optional.ofNullable(Java.ENGINE);
  }

  /** Returns the engine on OpenSSL's X25519 and the JDK's HMAC and AES-GCM, or empty. */
  static Optional<JcaHpke> openSsl() {
    return Optional.ofNullable(OpenSsl.ENGINE);
  }

  /** Returns the engine on the native provider, or empty (logged once) if it cannot be used. */
  static Optional<JcaHpke> nativeEngine() {
    return Optional.ofNullable(Native.ENGINE);
  }
}

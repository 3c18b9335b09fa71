package org.priodp.aggregator.hpke;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * X25519 (RFC 7748 section 5, the DH of RFC 9180 section 7.1 DHKEM(X25519)) in the system's
 * OpenSSL 3 libcrypto, called through JNA's direct mapping: the same code {@code openssl speed
 * ecdhx25519} measures. Each thread keeps one EVP_PKEY_CTX initialized for derivation with the
 * last secret key it used, so an open costs one EVP_PKEY for the peer, a set_peer and the
 * derive. Loading fails with an exception (the caller falls back) if JNA or libcrypto 3 is
 * missing. The per-thread native context lives as long as its thread.
 */
final class OpenSslX25519 {
  private static final int NID_X25519 = 1034;
  private static final long OPENSSL_3 = 0x30000000L;

  private static native long OpenSSL_version_num();

  private static native String OpenSSL_version(int type);

  private static native long EVP_PKEY_new_raw_private_key(int type, long engine, byte[] key, long len);

  private static native long EVP_PKEY_new_raw_public_key(int type, long engine, byte[] key, long len);

  private static native int EVP_PKEY_get_raw_public_key(long pkey, byte[] pub, long[] len);

  private static native void EVP_PKEY_free(long pkey);

  private static native long EVP_PKEY_CTX_new(long pkey, long engine);

  private static native void EVP_PKEY_CTX_free(long ctx);

  private static native int EVP_PKEY_derive_init(long ctx);

  private static native int EVP_PKEY_derive_set_peer_ex(long ctx, long peer, int validatePeer);

  private static native int EVP_PKEY_derive(long ctx, byte[] key, long[] keylen);

  private static final String VERSION = load();

  private OpenSslX25519() {}

  private static String load() {
    if (Native.POINTER_SIZE != 8) {
      throw new UnsupportedOperationException("needs a 64-bit JVM");
    }
    NativeLibrary lib;
    try {
      lib = NativeLibrary.getInstance("libcrypto.so.3");
    } catch (UnsatisfiedLinkError e) {
      lib = NativeLibrary.getInstance("crypto");
    }
    Native.register(OpenSslX25519.class, lib);
    if (OpenSSL_version_num() < OPENSSL_3) {
      throw new UnsupportedOperationException("libcrypto " + OpenSSL_version(0) + " is older than 3.0");
    }
    return OpenSSL_version(0);
  }

  /** Loads JNA and libcrypto (once) and returns OpenSSL's version string; throws if either fails. */
  static String version() {
    return VERSION;
  }

  /** One thread's derivation context for one secret key. */
  private static final class Ctx {
    byte[] sk;
    long pkey;
    long ctx;
  }

  private static final ThreadLocal<Ctx> CTX = ThreadLocal.withInitial(Ctx::new);

  /** This X25519 as the engine takes it: cached context for a recipient key, none for an ephemeral. */
  static final JcaHpke.RawX25519 RAW = new JcaHpke.RawX25519() {
    @Override
    public boolean agree(byte[] sk, byte[] pk, byte[] out) {
      return OpenSslX25519.agree(sk, pk, out);
    }

    @Override
    public boolean agreeEphemeral(byte[] sk, byte[] pk, byte[] out) {
      return OpenSslX25519.agreeOnce(sk, pk, null, out);
    }

    @Override
    public boolean encap(byte[] sk, byte[] pkR, byte[] enc, byte[] dh) {
      return OpenSslX25519.agreeOnce(sk, pkR, enc, dh);
    }
  };

  /**
   * Writes X25519(sk, pk) into out (32 bytes) and returns true, or returns false if OpenSSL
   * refuses (a low-order pk, whose shared secret is all zero, RFC 7748 section 6.1). The thread
   * keeps its context for sk (a recipient's long-lived key) for the next call.
   */
  static boolean agree(byte[] sk, byte[] pk, byte[] out) {
    Ctx c = CTX.get();
    if (c.sk == null || !java.security.MessageDigest.isEqual(c.sk, sk)) { // constant time: a secret
      if (c.ctx != 0) {
        EVP_PKEY_CTX_free(c.ctx);
        EVP_PKEY_free(c.pkey);
        c.ctx = 0;
        c.pkey = 0;
        c.sk = null;
      }
      long pkey = EVP_PKEY_new_raw_private_key(NID_X25519, 0, sk, sk.length);
      if (pkey == 0) {
        return false;
      }
      long ctx = EVP_PKEY_CTX_new(pkey, 0);
      if (ctx == 0 || EVP_PKEY_derive_init(ctx) <= 0) {
        if (ctx != 0) {
          EVP_PKEY_CTX_free(ctx);
        }
        EVP_PKEY_free(pkey);
        return false;
      }
      c.pkey = pkey;
      c.ctx = ctx;
      c.sk = sk.clone();
    }
    return derive(c.ctx, pk, out);
  }

  /**
   * {@link #agree} for a key used once (a sender's ephemeral key, RFC 9180 section 4.1 Encap):
   * also writes sk's public key to {@code pub} unless it is null (OpenSSL computed it when it
   * made the key); its OpenSSL key and context are freed before returning, so nothing of it
   * outlives the call.
   */
  static boolean agreeOnce(byte[] sk, byte[] pk, byte[] pub, byte[] out) {
    long pkey = EVP_PKEY_new_raw_private_key(NID_X25519, 0, sk, sk.length);
    if (pkey == 0) {
      return false;
    }
    long ctx = 0;
    try {
      if (pub != null) {
        long[] len = {pub.length};
        if (EVP_PKEY_get_raw_public_key(pkey, pub, len) <= 0 || len[0] != 32) {
          return false;
        }
      }
      ctx = EVP_PKEY_CTX_new(pkey, 0);
      return ctx != 0 && EVP_PKEY_derive_init(ctx) > 0 && derive(ctx, pk, out);
    } finally {
      if (ctx != 0) {
        EVP_PKEY_CTX_free(ctx);
      }
      EVP_PKEY_free(pkey);
    }
  }

  private static boolean derive(long ctx, byte[] pk, byte[] out) {
    long peer = EVP_PKEY_new_raw_public_key(NID_X25519, 0, pk, pk.length);
    if (peer == 0) {
      return false;
    }
    try {
      long[] len = {out.length};
      return EVP_PKEY_derive_set_peer_ex(ctx, peer, 0) > 0
          && EVP_PKEY_derive(ctx, out, len) > 0 && len[0] == 32;
    } finally {
      EVP_PKEY_free(peer);
    }
  }
}

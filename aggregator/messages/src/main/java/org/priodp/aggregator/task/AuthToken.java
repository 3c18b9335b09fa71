package org.priodp.aggregator.task;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * A bearer token that authenticates the Leader to the Helper (DAP-18 "Request Authentication"),
 * compared in constant time. The token never appears in {@link #toString()}; it has the RFC 6750
 * {@code b64token} syntax so that it can be sent in an Authorization header.
 */
public final class AuthToken {
  private static final String PREFIX = "Bearer ";
  private final byte[] token;
  private final byte[] digest;

  private AuthToken(byte[] token) {
    this.token = token;
    this.digest = sha256(token);
  }

  /** Returns the token; throws IllegalArgumentException (without echoing it) if malformed. */
  public static AuthToken of(String token) {
    Objects.requireNonNull(token, "token");
    if (token.isEmpty() || token.length() > 1024) {
      throw new IllegalArgumentException("auth token must have 1 to 1024 characters");
    }
    int i = 0;
    while (i < token.length() && isTokenChar(token.charAt(i))) {
      i++;
    }
    while (i < token.length() && token.charAt(i) == '=') {
      i++;
    }
    if (i != token.length() || token.charAt(0) == '=') {
      throw new IllegalArgumentException(
          "auth token may use only A-Z a-z 0-9 - . _ ~ + / and trailing = (RFC 6750 b64token)");
    }
    return new AuthToken(token.getBytes(StandardCharsets.US_ASCII));
  }

  private static boolean isTokenChar(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
        || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
  }

  private static byte[] sha256(byte[] b) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(b);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from the JDK", e);
    }
  }

  /**
   * Returns true if an Authorization header value is {@code Bearer <this token>}; the comparison
   * hashes both sides and compares the digests with {@link MessageDigest#isEqual}, so its time
   * depends on neither the token's content nor its length.
   */
  public boolean matchesAuthorization(String header) {
    if (header == null || header.length() < PREFIX.length()
        || !header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
      return false;
    }
    byte[] presented = header.substring(PREFIX.length()).strip().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(digest, sha256(presented));
  }

  /** Returns the Authorization header value {@code Bearer <token>}, for a client of the Helper. */
  public String authorizationHeader() {
    return PREFIX + new String(token, StandardCharsets.US_ASCII);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AuthToken t && MessageDigest.isEqual(digest, t.digest);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(digest);
  }

  @Override
  public String toString() {
    return "AuthToken[***]";
  }
}

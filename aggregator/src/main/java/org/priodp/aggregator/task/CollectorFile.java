package org.priodp.aggregator.task;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.Set;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.hpke.HpkeKemId;
import org.priodp.aggregator.hpke.HpkeKeyPair;

/**
 * What the Collector of a task holds (DAP-18 "Collecting Results"): the public task parameters,
 * the bearer token it presents to the Leader ("Request Authentication") and its HPKE
 * configuration with the private key that opens the aggregate shares ("Aggregate Share
 * Encryption"). The file (collector.json) is the task's public fields plus {@code
 * collector_auth_token} (or {@code collector_auth_token_env}), {@code collector_hpke_config}
 * (as in a task file) and {@code collector_hpke_private_key} (base64url). Construction checks that
 * the private key belongs to the configuration's public key.
 *
 * @param parameters the public task parameters
 * @param collectorAuthToken the token the Collector presents to the Leader
 * @param hpkeConfig the Collector's HPKE configuration, as the aggregators have it
 * @param hpkeKey the Collector's HPKE key pair
 */
public record CollectorFile(TaskParameters parameters, AuthToken collectorAuthToken,
    HpkeConfig hpkeConfig, HpkeKeyPair hpkeKey) {
  private static final Set<String> FIELDS = Set.of("collector_auth_token",
      "collector_auth_token_env", "collector_hpke_config", "collector_hpke_private_key");

  /** Validates that the key pair is the configuration's and that the suite is supported. */
  public CollectorFile {
    Objects.requireNonNull(parameters, "parameters");
    Objects.requireNonNull(collectorAuthToken, "collector_auth_token");
    Objects.requireNonNull(hpkeConfig, "collector_hpke_config");
    Objects.requireNonNull(hpkeKey, "collector_hpke_private_key");
    if (!hpkeConfig.isSupported()) {
      throw new IllegalArgumentException("collector_hpke_config: unsupported suite");
    }
    if (hpkeKey.kem() != hpkeConfig.kemId()
        || !Arrays.equals(hpkeKey.publicKey(), hpkeConfig.publicKey().toByteArray())) {
      throw new IllegalArgumentException("collector_hpke_private_key: not the private key of"
          + " collector_hpke_config's public key");
    }
  }

  /** Reads collector.json; errors name the field ({@code collector.vdaf.length: ...}). */
  public static CollectorFile read(Path file) throws IOException {
    return fromJson(TaskFile.readObject(file), "collector");
  }

  /** Reads the fields of a collector file from a JSON object. */
  public static CollectorFile fromJson(JsonNode n, String path) {
    TaskParameters p = TaskParameters.fromJson(n, path, FIELDS);
    AuthToken token = TaskFile.authTokenField(n, path, "collector_auth_token");
    HpkeConfig config = TaskFile.hpkeConfigField(n, path, "collector_hpke_config");
    byte[] secret = TaskFile.base64UrlField(n, path, "collector_hpke_private_key");
    HpkeKeyPair key;
    try {
      // derive the public key from the private one: a pair that does not match is refused
      key = keyPair(config, secret);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + ".collector_hpke_private_key: " + e.getMessage(),
          e);
    }
    try {
      return new CollectorFile(p, token, config, key);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + "." + e.getMessage(), e);
    }
  }

  private static HpkeKeyPair keyPair(HpkeConfig config, byte[] secret) {
    if (config.kemId() != HpkeKemId.DHKEM_X25519_HKDF_SHA256) {
      throw new IllegalArgumentException("only DHKEM(X25519, HKDF-SHA256) keys are supported");
    }
    if (secret.length != config.kemId().publicKeyLength()) {
      throw new IllegalArgumentException(secret.length + " bytes, "
          + config.kemId() + " private keys have " + config.kemId().publicKeyLength());
    }
    byte[] pub = publicKeyOf(secret);
    return new HpkeKeyPair(config.kemId(), secret, pub);
  }

  /** The X25519 public key of a private key (RFC 7748 scalar multiplication of the base point). */
  private static byte[] publicKeyOf(byte[] secret) {
    byte[] pub = new byte[org.bouncycastle.math.ec.rfc7748.X25519.POINT_SIZE];
    org.bouncycastle.math.ec.rfc7748.X25519.generatePublicKey(secret, 0, pub, 0);
    return pub;
  }

  /**
   * Returns the file's JSON: the public parameters, the token, the HPKE configuration as an object
   * and the private key in base64url.
   */
  public ObjectNode toJson() {
    ObjectNode n = parameters.toJson();
    n.put("collector_auth_token", collectorAuthToken.authorizationHeader().substring(
        "Bearer ".length()));
    ObjectNode c = n.putObject("collector_hpke_config");
    c.put("id", hpkeConfig.id().value());
    c.put("kem_id", hpkeConfig.kemId().code());
    c.put("kdf_id", hpkeConfig.kdfId().code());
    c.put("aead_id", hpkeConfig.aeadId().code());
    c.put("public_key", hpkeConfig.publicKey().toBase64Url());
    n.put("collector_hpke_private_key",
        Base64.getUrlEncoder().withoutPadding().encodeToString(hpkeKey.secretKey()));
    return n;
  }

  @Override
  public String toString() {
    return "CollectorFile[" + parameters.taskId() + ", " + hpkeConfig.id() + ", ***]";
  }
}

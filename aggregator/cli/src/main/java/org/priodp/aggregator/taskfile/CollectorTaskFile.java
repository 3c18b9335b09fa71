package org.priodp.aggregator.taskfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Set;
import org.priodp.aggregator.client.CollectorTask;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.hpke.HpkeKemId;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.TaskParameters;

/**
 * Reads and writes a Collector's task file (collector.json, written by {@code prio-dp task new}):
 * the task's public fields (as {@link ClientTaskFile}) plus {@code collector_auth_token} (or
 * {@code collector_auth_token_env}), {@code collector_hpke_config} (as in a task file) and
 * {@code collector_hpke_private_key} (base64url), and {@code noise_sampler} ("hardened" or
 * "exact", optional: the aggregators' default), the sampler the aggregators draw with, which
 * {@code collect} needs to state the guarantee exactly. Errors name the field.
 */
public final class CollectorTaskFile {
  private static final Set<String> FIELDS = Set.of("collector_auth_token",
      "collector_auth_token_env", "collector_hpke_config", "collector_hpke_private_key",
      "noise_sampler");

  private CollectorTaskFile() {}

  /** Reads collector.json; errors name the field ({@code collector.vdaf.length: ...}). */
  public static CollectorTask read(Path file) throws IOException {
    JsonNode n = TaskFile.readObject(file);
    TaskFile.requireKind(n, file, TaskFile.COLLECTOR_FILE,
        "collect needs the Collector's (collector.json, written by task new)");
    return fromJson(n, "collector");
  }

  /** Reads the fields of a collector file from a JSON object. */
  public static CollectorTask fromJson(JsonNode n, String path) {
    TaskParameters p = ClientTaskFile.fromJson(n, path, FIELDS);
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
    Boolean hardened = n.has("noise_sampler") ? hardened(n.get("noise_sampler"), path) : null;
    try {
      return hardened != null ? new CollectorTask(p, token, config, key, hardened)
          : new CollectorTask(p, token, config, key);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + "." + e.getMessage(), e);
    }
  }

  /** "noise_sampler": "hardened" (the fixed-work sampler) or "exact", as in a task file. */
  private static boolean hardened(JsonNode v, String path) {
    String s = v.isTextual() ? v.asText().toLowerCase(java.util.Locale.ROOT) : "";
    return switch (s) {
      case "hardened" -> true;
      case "exact" -> false;
      default -> throw new IllegalArgumentException(path
          + ".noise_sampler: expected exact or hardened");
    };
  }

  private static HpkeKeyPair keyPair(HpkeConfig config, byte[] secret) {
    HpkeKemId kem = HpkeKemId.DHKEM_X25519_HKDF_SHA256;
    if (config.kem().orElse(null) != kem) {
      throw new IllegalArgumentException("only DHKEM(X25519, HKDF-SHA256) keys are supported");
    }
    if (secret.length != kem.publicKeyLength()) {
      throw new IllegalArgumentException(secret.length + " bytes, "
          + kem + " private keys have " + kem.publicKeyLength());
    }
    byte[] pub = publicKeyOf(secret);
    return new HpkeKeyPair(kem, secret, pub);
  }

  /** The X25519 public key of a private key (RFC 7748 scalar multiplication of the base point). */
  private static byte[] publicKeyOf(byte[] secret) {
    byte[] pub = new byte[org.bouncycastle.math.ec.rfc7748.X25519.POINT_SIZE];
    org.bouncycastle.math.ec.rfc7748.X25519.generatePublicKey(secret, 0, pub, 0);
    return pub;
  }

  /**
   * Returns a Collector's task as collector.json's JSON: the public parameters, the token, the HPKE configuration as an object,
   * the private key in base64url and, for a DP task, the aggregators' noise_sampler.
   */
  public static ObjectNode toJson(CollectorTask task) {
    ObjectNode n = ClientTaskFile.toJson(task.parameters());
    n.put("collector_auth_token", task.collectorAuthToken().authorizationHeader().substring(
        "Bearer ".length()));
    ObjectNode c = n.putObject("collector_hpke_config");
    c.put("id", task.hpkeConfig().id().value());
    c.put("kem_id", task.hpkeConfig().kemId());
    c.put("kdf_id", task.hpkeConfig().kdfId());
    c.put("aead_id", task.hpkeConfig().aeadId());
    c.put("public_key", task.hpkeConfig().publicKey().toBase64Url());
    n.put("collector_hpke_private_key",
        Base64.getUrlEncoder().withoutPadding().encodeToString(task.hpkeKey().secretKey()));
    if (task.parameters().dpStrategy().budget().isPresent()
        || task.parameters().dpStrategy().budgetFromReports()) {
      n.put("noise_sampler", task.hardenedSampler() ? "hardened" : "exact");
    }
    return n;
  }
}

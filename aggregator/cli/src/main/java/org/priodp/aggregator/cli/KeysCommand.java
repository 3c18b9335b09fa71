package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.concurrent.Callable;
import org.priodp.aggregator.core.HelperHpkeKeys;
import org.priodp.aggregator.datastore.HelperHpkeKey;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * Manages an aggregator's (the Leader's or the Helper's) HPKE keys in its store (DAP-18 "HPKE
 * Configuration Request"): {@code list}, {@code add} (a new active key of the mandatory suite)
 * and {@code retire} (no longer advertised, still decrypts). A running {@code serve} on the same
 * database sees the change at the next request.
 */
@Command(
    name = "keys",
    mixinStandardHelpOptions = true,
    subcommands = {KeysCommand.ListKeys.class, KeysCommand.AddKey.class,
        KeysCommand.RetireKey.class},
    description = {
      "Lists, adds and retires an aggregator's HPKE keys (Leader or Helper).",
      "These are the keys its hpke_config advertises. A retired key is no longer advertised but"
          + " still decrypts input shares sealed to it; keep it at least twice the Cache-Control"
          + " lifetime (2 days)."},
    footer = {"%nExample:", "  prio-dp keys --db jdbc:sqlite:priodp-helper.db add",
      "  prio-dp keys --db jdbc:sqlite:priodp-helper.db retire 17"})
public final class KeysCommand implements PrioDpSubcommand {
  @picocli.CommandLine.Mixin
  StoreOptions store = new StoreOptions();

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 2;
  }

  JdbcDatastore open() throws IOException {
    return store.open("keys");
  }

  static HelperHpkeKeys keys(JdbcDatastore store) {
    return new HelperHpkeKeys(store, new SecureRandom(), Clock.systemUTC());
  }

  static String line(HelperHpkeKey k) {
    return k.config().id().value() + " " + k.state().dbName() + " kem=" + k.config().kemId()
        + " kdf=" + k.config().kdfId() + " aead=" + k.config().aeadId()
        + " public_key=" + Base64.getUrlEncoder().withoutPadding()
            .encodeToString(k.config().publicKey().toByteArray()) + " created=" + k.createdAt();
  }

  /** What the three subcommands share: the parent's store, opened and closed around the work. */
  abstract static class KeysAction implements Callable<Integer> {
    @ParentCommand
    KeysCommand parent;
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public final Integer call() throws IOException {
      try (JdbcDatastore store = parent.open()) {
        PrintWriter out = spec.commandLine().getOut();
        int code = run(keys(store), out);
        out.flush();
        return code;
      }
    }

    /** Does the work on the store's keys; returns the exit code. */
    abstract int run(HelperHpkeKeys keys, PrintWriter out);
  }

  /** {@code keys list}. */
  @Command(name = "list", mixinStandardHelpOptions = true,
      description = "Lists the keys: config id, state, suite, public key, creation time.",
      footer = {"%nExample:", "  prio-dp keys --db jdbc:sqlite:priodp-helper.db list"})
  static final class ListKeys extends KeysAction {
    @Override
    int run(HelperHpkeKeys keys, PrintWriter out) {
      for (HelperHpkeKey k : keys.all()) {
        out.println(line(k));
      }
      return 0;
    }
  }

  /** {@code keys add}. */
  @Command(name = "add", mixinStandardHelpOptions = true,
      description = {"Adds an active key in the mandatory DAP HPKE suite.",
        "DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-128-GCM."},
      footer = {"%nExample:", "  prio-dp keys --db jdbc:sqlite:priodp-helper.db add"})
  static final class AddKey extends KeysAction {
    @Override
    int run(HelperHpkeKeys keys, PrintWriter out) {
      out.println(line(keys.add()));
      return 0;
    }
  }

  /** {@code keys retire ID}. */
  @Command(name = "retire", mixinStandardHelpOptions = true,
      description = {"Retires a key: no longer advertised, it still decrypts.",
        "Give its config id, as keys list prints it. Retiring the last active key first adds a"
            + " new one (and says so), so that hpke_config always advertises a key."},
      footer = {"%nExample:", "  prio-dp keys --db jdbc:sqlite:priodp-helper.db retire 17"})
  static final class RetireKey extends KeysAction {
    @Parameters(paramLabel = "CONFIG_ID", description = "the config id (0..255)")
    int configId;

    @Override
    int run(HelperHpkeKeys keys, PrintWriter out) {
      boolean known = keys.find(configId).isPresent();
      boolean last = known && keys.all().stream()
          .filter(k -> k.state() == HelperHpkeKey.State.ACTIVE)
          .allMatch(k -> k.config().id().value() == configId)
          && keys.find(configId).get().state() == HelperHpkeKey.State.ACTIVE;
      // the new key first: the server is never left without an active key to advertise
      HelperHpkeKey added = last ? keys.add() : null;
      if (!keys.retire(configId)) {
        spec.commandLine().getErr().println("keys retire: no key with config id " + configId);
        spec.commandLine().getErr().flush();
        return 2;
      }
      if (added != null) {
        out.println("retired HPKE config " + configId + ", the last active one; generated config "
            + added.config().id().value() + " so the server keeps answering hpke_config");
        out.println(line(added));
      } else {
        out.println("retired " + configId);
      }
      return 0;
    }
  }
}

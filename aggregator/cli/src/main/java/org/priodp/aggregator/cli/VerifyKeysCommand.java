package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.concurrent.Callable;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.core.VdafVerifyKeys;
import org.priodp.aggregator.datastore.VdafVerifyKey;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.vdaf.Prio3;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * Manages a task's VDAF verification keys in an aggregator's store (DAP-19 "Leader
 * Initialization", "Helper Initialization"): {@code list}, {@code add} (a new active key under a
 * verification_key_id, generated or given) and {@code retire}. A running {@code serve} on the same
 * database uses the change at its next aggregation job: the Leader sends its newest active key the
 * Helper knows, the Helper accepts exactly its active keys.
 */
@Command(
    name = "verify-keys",
    mixinStandardHelpOptions = true,
    subcommands = {VerifyKeysCommand.ListKeys.class, VerifyKeysCommand.AddKey.class,
        VerifyKeysCommand.RetireKey.class},
    description = {
      "Lists, adds and retires a task's VDAF verification keys.",
      "On the Leader and on the Helper, beside a running serve on the same store.",
      "Rotate without downtime: add the new key to the Helper, then to the Leader (it sends"
          + " the newest key the Helper knows), then retire the old key on the Leader and last"
          + " on the Helper. A report the Helper refuses for an unknown key goes back to the"
          + " Leader's pool and is aggregated under another key."},
    footer = {"%nExample:",
      "  prio-dp verify-keys --config helper.json --db jdbc:sqlite:priodp-helper.db add --id 1",
      "  prio-dp verify-keys --config leader.json --db jdbc:sqlite:priodp-leader.db add --id 1"
          + " --key KEY",
      "  prio-dp verify-keys --config leader.json --db jdbc:sqlite:priodp-leader.db retire 0"})
public final class VerifyKeysCommand extends StoreCommand {

  /** Returns the task the options name: the only one of the file, or the one --task names. */
  TaskDefinition task() throws IOException {
    return tasks.one();
  }

  static String line(VdafVerifyKey k) {
    return k.id() + " " + k.state().dbName() + " created=" + k.createdAt()
        + k.helperRejectedAt().map(t -> " helper_refused=" + t).orElse("");
  }

  /** What the subcommands share: the task and the parent's store, opened around the work. */
  abstract static class Action implements Callable<Integer> {
    @ParentCommand
    VerifyKeysCommand parent;
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public final Integer call() throws IOException {
      TaskDefinition task = parent.task();
      return parent.store.forTasks(parent.tasks.file()).run(spec, "verify-keys",
          (store, out) -> run(new VdafVerifyKeys(store, Clock.systemUTC()), task, out));
    }

    /** Does the work on the task's keys; returns the exit code. */
    abstract int run(VdafVerifyKeys keys, TaskDefinition task, PrintWriter out);

    int fail(String message) {
      return StoreOptions.fail(spec, "verify-keys", message);
    }
  }

  /** {@code verify-keys list}. */
  @Command(name = "list", mixinStandardHelpOptions = true,
      description = {"Lists the task's keys, never the key itself.",
        "One line per key: id, state, when added and, on the Leader, when the Helper last"
            + " refused it."},
      footer = {"%nExample:",
        "  prio-dp verify-keys --config leader.json --db jdbc:sqlite:priodp-leader.db list"})
  static final class ListKeys extends Action {
    @Override
    int run(VdafVerifyKeys keys, TaskDefinition task, PrintWriter out) {
      for (VdafVerifyKey k : keys.all(task)) {
        out.println(line(k));
      }
      return 0;
    }
  }

  /** {@code verify-keys add}. */
  @Command(name = "add", mixinStandardHelpOptions = true,
      description = {"Adds an active key under a verification_key_id.",
        "Without --key, generates one and prints it: give the same key to the other aggregator"
            + " with --key (it is a secret both aggregators share)."},
      footer = {"%nExample:", "  prio-dp verify-keys --config helper.json add --id 1",
        "  prio-dp verify-keys --config leader.json --db jdbc:sqlite:priodp-leader.db add --id 1"
            + " --key 3q2-7w..."})
  static final class AddKey extends Action {
    @Option(names = "--id", required = true, paramLabel = "N",
        description = "The verification_key_id (0..255), unused in this task.")
    int id;

    @Option(names = "--key", paramLabel = "BASE64URL",
        description = "The key (32 bytes, base64url); generated when absent.")
    String key;

    @Override
    int run(VdafVerifyKeys keys, TaskDefinition task, PrintWriter out) {
      if (id < 0 || id > 255) {
        return fail("--id: " + id + " is not 0..255");
      }
      byte[] k;
      if (key == null) {
        k = new byte[Prio3.VERIFY_KEY_SIZE];
        new SecureRandom().nextBytes(k);
      } else {
        try {
          k = Base64.getUrlDecoder().decode(key.strip());
        } catch (IllegalArgumentException e) {
          return fail("--key: not base64url (" + e.getMessage() + ")");
        }
        if (k.length != Prio3.VERIFY_KEY_SIZE) {
          return fail("--key: " + k.length + " bytes, Prio3 needs " + Prio3.VERIFY_KEY_SIZE);
        }
      }
      if (!keys.add(task, id, k)) {
        return fail("--id: the task already has a key with id " + id + " (ids are never reused)");
      }
      out.println("added " + id + (key == null ? " key="
          + Base64.getUrlEncoder().withoutPadding().encodeToString(k) : ""));
      return 0;
    }
  }

  /** {@code verify-keys retire ID}. */
  @Command(name = "retire", mixinStandardHelpOptions = true,
      description = {"Retires a key: the Leader stops sending it, the Helper refuses it.",
        "Retire it on the Leader first, then on the Helper."},
      footer = {"%nExample:",
        "  prio-dp verify-keys --config leader.json --db jdbc:sqlite:priodp-leader.db retire 0"})
  static final class RetireKey extends Action {
    @Parameters(paramLabel = "ID", description = "the verification_key_id (0..255)")
    int id;

    @Override
    int run(VdafVerifyKeys keys, TaskDefinition task, PrintWriter out) {
      if (!keys.retire(task, id)) {
        return fail("no key with id " + id + " in task " + task.taskId().toBase64Url());
      }
      out.println("retired " + id);
      return 0;
    }
  }
}

package org.priodp.aggregator.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.priodp.aggregator.datastore.DatastoreException;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import picocli.CommandLine.Option;

/**
 * The options that name an aggregator's store for the commands that manage it beside a running
 * {@code serve} ({@code keys}, {@code verify-keys}): the JDBC URL and the PostgreSQL credentials,
 * read as {@code serve} reads them.
 */
final class StoreOptions {
  @Option(names = "--db", paramLabel = "URL",
      defaultValue = "${env:PRIODP_DB}",
      showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER,
      description = "JDBC URL of the store, as for serve (default: the SQLite file"
          + " serve would open for the same --config: priodp-leader.db for a file of Leader"
          + " tasks only, else priodp-helper.db; without --config whichever of the two exists)."
          + " [PRIODP_DB]")
  String db;

  /** The tasks of the command's --config, if it has one: they choose the default store file. */
  private java.util.List<org.priodp.aggregator.core.TaskDefinition> tasks;

  /**
   * Makes the default store (no --db) the one {@code serve} opens for {@code tasks}: the
   * Leader's file for Leader tasks only, else the Helper's.
   */
  StoreOptions forTasks(java.util.List<org.priodp.aggregator.core.TaskDefinition> tasks) {
    this.tasks = java.util.List.copyOf(tasks);
    return this;
  }

  @Option(names = "--db-user", paramLabel = "NAME", defaultValue = "${env:PRIODP_DB_USER}",
      description = "PostgreSQL user (unless the URL has user=). [PRIODP_DB_USER]")
  String dbUser;

  @Option(names = "--db-password-file", paramLabel = "FILE",
      defaultValue = "${env:PRIODP_DB_PASSWORD_FILE}",
      description = "File whose first line is the PostgreSQL password, as for serve; it wins"
          + " over the PRIODP_DB_PASSWORD variable. [PRIODP_DB_PASSWORD_FILE]")
  String dbPasswordFile;

  /** Opens the store; a failure is one line naming {@code command} and the redacted URL. */
  JdbcDatastore open(String command) throws IOException {
    if (db == null || db.isBlank()) {
      db = defaultUrl(Path.of(""), tasks);
    }
    Properties p = ServeCommand.dbProperties(db, dbUser, dbPasswordFile, System.getenv());
    try {
      return JdbcDatastore.open(db, p);
    } catch (DatastoreException | IllegalArgumentException e) {
      throw new CliIo.Failure(command + ": cannot open store " + ServeCommand.redact(db), e);
    }
  }

  /** Work on an opened store that prints to {@code out}; returns the exit code. */
  @FunctionalInterface
  interface Work {
    /** Does the work. */
    int run(JdbcDatastore store, java.io.PrintWriter out);
  }

  /**
   * Opens the store, runs {@code work} with the subcommand's output and flushes it; a store
   * failure is one line naming {@code command} and the subcommand.
   */
  int run(picocli.CommandLine.Model.CommandSpec spec, String command, Work work)
      throws IOException {
    try (JdbcDatastore store = open(command)) {
      java.io.PrintWriter out = spec.commandLine().getOut();
      int code = work.run(store, out);
      out.flush();
      return code;
    } catch (DatastoreException e) {
      throw new CliIo.Failure(command + " " + spec.name() + ": the store failed", e);
    }
  }

  /** Prints {@code COMMAND SUBCOMMAND: message} on the error stream; returns exit status 2. */
  static int fail(picocli.CommandLine.Model.CommandSpec spec, String command, String message) {
    spec.commandLine().getErr().println(command + " " + spec.name() + ": " + message);
    spec.commandLine().getErr().flush();
    return 2;
  }

  /**
   * Returns the store of {@code dir} when --db is not given: the file serve opens for the task
   * file's {@code tasks} ({@code priodp-leader.db} for Leader tasks only, else {@code
   * priodp-helper.db}), or without tasks {@link #defaultUrl(Path)}'s.
   */
  static String defaultUrl(Path dir,
      java.util.List<org.priodp.aggregator.core.TaskDefinition> tasks) {
    return tasks != null && !tasks.isEmpty()
        ? "jdbc:sqlite:" + dir.resolve(ServeCommand.defaultStoreFile(tasks)) : defaultUrl(dir);
  }

  /**
   * Returns the store of {@code dir} when --db is not given and no task file says which:
   * serve's default file of either role that exists there, else {@code priodp-helper.db}.
   *
   * @throws IllegalArgumentException if both exist, so that --db must say which
   */
  static String defaultUrl(Path dir) {
    Path leader = dir.resolve("priodp-leader.db");
    Path helper = dir.resolve("priodp-helper.db");
    boolean hasLeader = Files.exists(leader);
    if (hasLeader && Files.exists(helper)) {
      throw new IllegalArgumentException("both " + leader + " and " + helper
          + " exist: name the store with --db jdbc:sqlite:FILE");
    }
    return "jdbc:sqlite:" + (hasLeader ? leader : helper);
  }
}

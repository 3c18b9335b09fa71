package org.priodp.aggregator.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.taskfile.TaskFile;

/**
 * The tasks an operator's store command works on: those of the task file {@code serve} reads
 * ({@code --config}), or the one {@code --task} names (base64url task ID).
 */
final class ConfigTasks {
  private ConfigTasks() {
  }

  /** Returns every task of the file, or only the one {@code task} names if it is not null. */
  static List<TaskDefinition> select(Path config, String task) throws IOException {
    if (config == null) {
      throw new IllegalArgumentException("--config FILE is needed: the task file serve reads");
    }
    List<TaskDefinition> tasks = TaskFile.read(config);
    if (task == null) {
      return tasks;
    }
    TaskId id;
    try {
      id = TaskId.fromBase64Url(task);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--task: " + e.getMessage(), e);
    }
    return List.of(tasks.stream().filter(t -> t.taskId().equals(id)).findFirst().orElseThrow(
        () -> new IllegalArgumentException("--task: " + config + " has no task " + task)));
  }

  /** Returns the one task: the file's only one, or the one {@code task} names. */
  static TaskDefinition one(Path config, String task) throws IOException {
    List<TaskDefinition> tasks = select(config, task);
    if (tasks.size() != 1) {
      throw new IllegalArgumentException("--task: " + config + " has " + tasks.size()
          + " tasks; name one");
    }
    return tasks.get(0);
  }
}

package org.priodp.aggregator.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.taskfile.TaskFile;
import picocli.CommandLine.Option;

/**
 * The options that name the tasks an operator's store command works on ({@code status}, {@code
 * collection-jobs}, {@code verify-keys}): the task file {@code serve} reads ({@code --config}, or
 * PRIODP_CONFIG as for serve) and, among its tasks, the one {@code --task} names (base64url task
 * ID).
 */
final class TaskOptions {
  @Option(names = "--config", paramLabel = "FILE", defaultValue = "${env:PRIODP_CONFIG}",
      description = "The task file serve reads. [PRIODP_CONFIG]")
  Path config;

  @Option(names = "--task", paramLabel = "TASK_ID",
      description = "The task (base64url), needed when the file has several and the command"
          + " works on one.")
  String task;

  /** Returns every task of the file, as serve reads it (whatever --task names). */
  List<TaskDefinition> file() throws IOException {
    if (config == null) {
      throw new IllegalArgumentException("--config FILE is needed: the task file serve reads");
    }
    return TaskFile.read(config);
  }

  /** Returns every task of the file, or only the one --task names. */
  List<TaskDefinition> select() throws IOException {
    List<TaskDefinition> tasks = file();
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

  /** Returns the one task: the file's only one, or the one --task names. */
  TaskDefinition one() throws IOException {
    List<TaskDefinition> tasks = select();
    if (tasks.size() != 1) {
      throw new IllegalArgumentException("--task: " + config + " has " + tasks.size()
          + " tasks; name one");
    }
    return tasks.get(0);
  }
}

package org.priodp.aggregator.cli;

import org.priodp.aggregator.dap.DapVersion;
import picocli.CommandLine.Option;

/** The command-line option that chooses the DAP draft a new task speaks (DAP-19 by default). */
public final class DapVersionOption {
  @Option(names = "--dap-version", paramLabel = "VERSION", defaultValue = "dap-19",
      description = "The DAP draft the task speaks: dap-19 or dap-18.")
  String version;

  /** Returns the chosen version; an unknown one is an IllegalArgumentException naming the option. */
  public DapVersion version() {
    try {
      return DapVersion.fromTag(version.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--dap-version: \"" + version + "\" is not dap-19 or"
          + " dap-18", e);
    }
  }
}

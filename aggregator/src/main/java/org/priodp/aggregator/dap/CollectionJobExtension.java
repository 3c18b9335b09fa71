package org.priodp.aggregator.dap;

import java.util.Arrays;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * One collection job extension, {@code struct { CollectionJobExtensionType extension_type;
 * opaque extension_data<0..2^16-1>; }} (DAP-18 "Collection Job Extensions"). DAP-18 registers no
 * type besides {@code reserved(0)}, so every decoded type is kept as its uint16 code point and the
 * service decides whether it is supported ({@code unsupportedExtension}).
 */
public record CollectionJobExtension(int extensionType, byte[] extensionData) {
  /** Validates the uint16 type and the data length, and copies the data. */
  public CollectionJobExtension {
    Extensions.checkType(extensionType);
    extensionData = Octets.checkVector(extensionData, 0, 0xffff, "extension_data");
  }

  /** Returns a copy of the extension data. */
  @Override
  public byte[] extensionData() {
    return extensionData.clone();
  }

  int dataLength() {
    return extensionData.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CollectionJobExtension e && e.extensionType == extensionType
        && Arrays.equals(e.extensionData, extensionData);
  }

  @Override
  public int hashCode() {
    return 31 * extensionType + Arrays.hashCode(extensionData);
  }

  @Override
  public String toString() {
    return "CollectionJobExtension[type=" + extensionType + ", data=" + Octets.hex(extensionData) + "]";
  }
}

package org.priodp.aggregator.dap;

import org.priodp.aggregator.dap.internal.Octets;

/**
 * One collection job extension, {@code struct { CollectionJobExtensionType extension_type;
 * opaque extension_data<0..2^16-1>; }} (DAP-18 "Collection Job Extensions"). DAP-18 registers no
 * type besides {@code reserved(0)}, so every decoded type is kept as its uint16 code point and the
 * service decides whether it is supported ({@code unsupportedExtension}).
 */
public record CollectionJobExtension(int extensionType, ByteString extensionData)
    implements Extensions.Entry {
  /** {@code CollectionJobExtension extensions<0..2^16-1>}: strictly increasing, else invalidExtension. */
  static final Extensions<CollectionJobExtension> LIST =
      Extensions.ordered(CollectionJobExtension::new, DapError.INVALID_EXTENSION);

  /** Validates the uint16 type and the data length. */
  public CollectionJobExtension {
    Extensions.checkEntry(extensionType, extensionData);
  }

  /** Returns the extension holding a copy of {@code extensionData}. */
  public CollectionJobExtension(int extensionType, byte[] extensionData) {
    this(extensionType, Octets.of(extensionData, "extension_data"));
  }
}

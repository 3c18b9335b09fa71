package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;

import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.Decoding;

/** The one extension-list codec behind the four kinds of DAP-18 extension lists. */
class ExtensionsTest {
  private static final String OUT_OF_ORDER = "0008" + "0005 0000" + "0002 0000";

  private static <T extends Extensions.Entry> Function<byte[], List<T>> decoder(Extensions<T> kind) {
    return b -> Decoding.decodeAll(b, "list", (DapReader r) -> kind.read(r, "extensions"));
  }

  @Test
  void eachKindRefusesOrKeepsAnOutOfOrderListAsItsSectionSays() {
    assertRejects(decoder(TaskExtension.LIST), hex(OUT_OF_ORDER), "extensions[1].extension_type",
        DapError.INVALID_EXTENSION);
    assertRejects(decoder(CollectionJobExtension.LIST), hex(OUT_OF_ORDER),
        "extensions[1].extension_type", DapError.INVALID_EXTENSION);
    assertRejects(decoder(AggregationJobExtension.LIST), hex(OUT_OF_ORDER),
        "extensions[1].extension_type", DapError.INVALID_MESSAGE);
    assertEquals(List.of(new ReportExtension(5, new byte[0]), new ReportExtension(2, new byte[0])),
        decoder(ReportExtension.LIST).apply(hex(OUT_OF_ORDER)));
  }

  @Test
  void constructionAppliesTheSameOrderRule() {
    CollectionJobExtension five = new CollectionJobExtension(5, new byte[0]);
    DapDecodeException e = assertThrows(DapDecodeException.class,
        () -> CollectionJobExtension.LIST.checkList(List.of(five, five), "extensions"));
    assertEquals("extensions", e.field());
    assertEquals(DapError.INVALID_EXTENSION, e.error());
    assertEquals(2, ReportExtension.LIST.checkList(List.of(new ReportExtension(5, new byte[0]),
        new ReportExtension(5, new byte[0])), "x").size());
  }

  @Test
  void aTaskIntervalOfTheWrongLengthIsInvalidExtension() {
    DapDecodeException e = assertRejects(decoder(TaskExtension.LIST),
        hex("0007" + "0001 0003 000000"), "task_interval", DapError.INVALID_EXTENSION);
    assertEquals("task_interval: extension_data must be one 16-byte Interval, got 3 bytes",
        e.getMessage());
  }

  @Test
  void entriesAreValuesOverByteString() {
    TaskExtension a = new TaskExtension(7, hex("abcd"));
    assertEquals(a, new TaskExtension(7, ByteString.copyOf(hex("abcd"))));
    assertEquals(a.hashCode(), new TaskExtension(7, hex("abcd")).hashCode());
    assertThrows(NullPointerException.class, () -> new TaskExtension(7, (byte[]) null));
    assertThrows(NullPointerException.class, () -> new TaskExtension(7, (ByteString) null));
    assertThrows(IllegalArgumentException.class, () -> new CollectionJobExtension(0x10000, new byte[0]));
  }
}

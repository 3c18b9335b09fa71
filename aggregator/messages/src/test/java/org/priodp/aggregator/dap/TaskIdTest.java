package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class TaskIdTest {
  @Test
  void usesUrlSafeUnpaddedBase64AsInTheSpecExample() {
    TaskId t = new TaskId(HexFormat.of().parseHex(
        "f0163447364ccf1bc0e3affcca6873c9c381f64acdf9020662f83f46c07219e7"));
    assertEquals("8BY0RzZMzxvA46_8ymhzycOB9krN-QIGYvg_RsByGec", t.toBase64Url());
    assertEquals(t, TaskId.fromBase64Url(t.toBase64Url()));
    assertEquals(t, TaskId.decode(t.encode()));
  }

  @Test
  void rejectsWrongLengthsAndBadBase64() {
    assertThrows(IllegalArgumentException.class, () -> new TaskId(new byte[31]));
    assertThrows(DapDecodeException.class, () -> TaskId.decode(new byte[33]));
    assertThrows(DapDecodeException.class, () -> TaskId.fromBase64Url("8BY0RzZMzxvA46_8ymhzycOB9krN-QIGYvg_RsByGe=="));
    assertThrows(DapDecodeException.class, () -> TaskId.fromBase64Url("abc"));
    assertThrows(DapDecodeException.class, () -> TaskId.fromBase64Url("8BY0RzZMzxvA46/8ymhzycOB9krN+QIGYvg_RsByGec"));
  }
}

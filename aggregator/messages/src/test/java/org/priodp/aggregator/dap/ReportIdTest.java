package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;

import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

class ReportIdTest {
  @Test
  void isSixteenRawBytesWithUrlSafeBase64() {
    // opaque ReportID[16]: no length prefix
    CodecChecks.assertSpecBytes("000102030405060708090a0b0c0d0e0f",
        new ReportId(hex("000102030405060708090a0b0c0d0e0f")), ReportId::encode, ReportId::decode);
    ReportId id = ReportId.decode(hex("000102030405060708090a0b0c0d0e0f"));
    assertEquals("AAECAwQFBgcICQoLDA0ODw", id.toBase64Url());
    assertEquals(id, ReportId.fromBase64Url("AAECAwQFBgcICQoLDA0ODw"));
    assertEquals("ReportId[AAECAwQFBgcICQoLDA0ODw]", id.toString());
  }

  @Test
  void rejectsWrongLengthsAndBadBase64() {
    assertThrows(IllegalArgumentException.class, () -> new ReportId(new byte[15]));
    assertThrows(IllegalArgumentException.class, () -> new ReportId(new byte[17]));
    assertThrows(NullPointerException.class, () -> new ReportId((byte[]) null));
    assertThrows(NullPointerException.class, () -> new ReportId((ByteString) null));
    CodecChecks.assertEveryTruncationRejected(new byte[16], ReportId::decode);
    assertRejects(ReportId::decode, new byte[15], "report_id");
    assertRejects(ReportId::decode, new byte[17], "ReportID");
    assertRejects(ReportId::decode, null, "ReportID");
    assertRejects(t -> ReportId.fromBase64Url(null), new byte[0], "report_id");
    assertRejects(t -> ReportId.fromBase64Url("AAECAwQFBgcICQoLDA0ODw=="), new byte[0], "report_id");
    assertRejects(t -> ReportId.fromBase64Url("AAECAwQFBgcICQoLDA0O"), new byte[0], "report_id");
    assertRejects(t -> ReportId.fromBase64Url("AAECAwQFBgcICQoLDA0OD+"), new byte[0], "report_id");
  }

  @Test
  void keepsItsOwnCopyAndDrawsRandomIds() {
    byte[] b = new byte[16];
    ReportId id = new ReportId(b);
    b[0] = 1;
    id.bytes()[1] = 1;
    assertEquals(new ReportId(new byte[16]), id);
    SecureRandom rnd = new SecureRandom();
    assertNotEquals(ReportId.random(rnd), ReportId.random(rnd));
  }
}

package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class VerifyRespTypeTest {
  @Test
  void hasTheThreeSpecCodes() {
    assertEquals(VerifyRespType.CONTINUE, VerifyRespType.fromCode(0, "t"));
    assertEquals(VerifyRespType.FINISH, VerifyRespType.fromCode(1, "t"));
    assertEquals(VerifyRespType.REJECT, VerifyRespType.fromCode(2, "t"));
    assertEquals(3, VerifyRespType.values().length);
    assertEquals("continue", VerifyRespType.CONTINUE.specName());
  }

  @Test
  void rejectsOtherCodesNamingTheField() {
    for (int code : new int[] {3, 0x80, 0xff}) {
      DapDecodeException e = assertThrows(DapDecodeException.class,
          () -> VerifyRespType.fromCode(code, "verify_resps[0].verify_resp_type"));
      assertEquals("verify_resps[0].verify_resp_type", e.field());
      assertEquals(DapError.INVALID_MESSAGE, e.error());
    }
  }
}

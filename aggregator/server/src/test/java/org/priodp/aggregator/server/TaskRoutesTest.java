package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.testing.Fixture;

/** Where the tasks' resources live (DAP-18 "HTTP Usage"): base paths of absolute http(s) URLs. */
class TaskRoutesTest {
  @Test
  void helperEndpointsMustBeAbsoluteHttpUrls() {
    assertEquals("/", TaskRoutes.basePath("https://h.example"));
    assertEquals("/", TaskRoutes.basePath("http://h.example:8080/"));
    assertEquals("/a%20b/", TaskRoutes.basePath("https://h.example/a%20b"));
    for (String bad : new String[] {"/dap/", "h.example/dap", "ftp://h.example/",
        "https:///dap/", "https://h.example/dap?x=1", "mailto:x@h.example", "https://h example/"}) {
      assertThrows(IllegalArgumentException.class, () -> TaskRoutes.basePath(bad), bad);
    }
    Fixture f = Fixture.laplace(63);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TaskRoutes.of(List.of(DapRouterTest.at(f, "ftp://h.example/", Role.HELPER))));
    assertTrue(e.getMessage().startsWith("task " + f.taskId.toBase64Url()
        + ": helper_aggregator_endpoint: "), e.getMessage());
  }
}

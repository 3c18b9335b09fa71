package org.priodp.aggregator.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskExtension;

class AttributionSettingsTest {
  private static TaskConfiguration config(List<TaskExtension> ext) {
    return new TaskConfiguration(new byte[] {1}, "https://leader.example/",
        "https://helper.example/", 3600, 10, BatchMode.LEADER_SELECTED, new byte[0], 1,
        new byte[0], ext);
  }

  @Test
  void theTaskExtensionsCarryUtf8ValuesUnderTheCodePoints() {
    AttributionSettings s = new AttributionSettings(AttributionCodePoints.DEFAULTS,
        Optional.of(URI.create("https://collector.example/dap/")), Optional.of("shop.example"));
    List<TaskExtension> ext = s.taskExtensions();
    assertEquals(2, ext.size());
    assertEquals(0xFA03, ext.get(0).extensionType());
    assertEquals("https://collector.example/dap/",
        new String(ext.get(0).extensionData().toByteArray(), StandardCharsets.UTF_8));
    assertEquals(0xFA04, ext.get(1).extensionType());
    assertEquals(s, AttributionSettings.of(config(ext), AttributionCodePoints.DEFAULTS));
    // Under other code points the same extensions are not attribution ones.
    AttributionCodePoints other = AttributionCodePoints.of(java.util.Map.of(
        "collector_identity", 0xFB03, "budget_source", 0xFB04));
    assertEquals(Optional.empty(), AttributionSettings.of(config(ext), other).collectorIdentity());
  }

  @Test
  void theIdentityIsAnHttpsUrlWithAHost() {
    for (String bad : List.of("http://collector.example/", "https:///x", "https://u@c.example/",
        "https://c.example/?q=1", "https://c.example/#f", "not a url")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> AttributionSettings.parseIdentity(bad), bad);
      assertTrue(e.getMessage().startsWith("collector_identity: "), e.getMessage());
    }
    assertEquals("c.example", AttributionSettings.parseIdentity("https://c.example").getHost());
  }

  @Test
  void aTaskConfigurationWithABadValueIsRefused() {
    TaskExtension http = new TaskExtension(0xFA03,
        "http://c.example/".getBytes(StandardCharsets.UTF_8));
    assertThrows(IllegalArgumentException.class,
        () -> AttributionSettings.of(config(List.of(http)), AttributionCodePoints.DEFAULTS));
    TaskExtension notUtf8 = new TaskExtension(0xFA04, new byte[] {(byte) 0xff});
    assertThrows(IllegalArgumentException.class,
        () -> AttributionSettings.of(config(List.of(notUtf8)), AttributionCodePoints.DEFAULTS));
    assertThrows(IllegalArgumentException.class, () -> new AttributionSettings(
        AttributionCodePoints.DEFAULTS, Optional.empty(), Optional.of("")));
  }
}

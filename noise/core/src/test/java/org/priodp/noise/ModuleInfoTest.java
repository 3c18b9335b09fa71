package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** module-info: the tests run in the named module, which exports only the public API. */
class ModuleInfoTest {

  @Test
  void exportsOnlyThePublicApi() {
    Module m = Rational.class.getModule();
    assertTrue(m.isNamed(), "the tests run on the module path");
    assertEquals("org.priodp.noise", m.getName());
    Set<String> exported = m.getDescriptor().exports().stream()
        .map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
    assertEquals(Set.of("org.priodp.noise", "org.priodp.noise.local", "org.priodp.noise.ledger"), exported);
  }
}

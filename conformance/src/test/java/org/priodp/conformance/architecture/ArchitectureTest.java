package org.priodp.conformance.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks the layering of issue 22 on the byte code of every module's main classes (this module's
 * test class path holds them all; test classes are not imported): the core knows no HTTP, JDBC,
 * Vert.x or Jackson and never the JDBC datastore; the messages know no I/O and no other part of
 * the aggregator; the client knows no server stack, JDBC, JSON, metrics, picocli or logging
 * binding; only the cli (and this module) use the command-line packages; the library modules
 * (field, noise, vdaf) know no aggregator; and each aggregator module uses only the modules below
 * it. The module-info files enforce part of this when the main code compiles; these rules also
 * cover what a module may read but must not use (java.base's I/O in the messages, java.net.http
 * in the core) and hold when the jars run from the class path.
 */
class ArchitectureTest {
  // the aggregator's modules, as the packages each holds
  private static final String[] MESSAGES = {"org.priodp.aggregator.dap..",
      "org.priodp.aggregator.hpke..", "org.priodp.aggregator.task.."};
  private static final String DATASTORE = "org.priodp.aggregator.datastore..";
  private static final String DATASTORE_JDBC = "org.priodp.aggregator.datastore.jdbc..";
  private static final String CORE = "org.priodp.aggregator.core..";
  private static final String CLIENT = "org.priodp.aggregator.client..";
  private static final String[] SERVER = {"org.priodp.aggregator.server..",
      "org.priodp.aggregator.peer.."};
  private static final String[] CLI = {"org.priodp.aggregator.cli..",
      "org.priodp.aggregator.demo..", "org.priodp.aggregator.provision..",
      "org.priodp.aggregator.taskfile..", "org.priodp.aggregator.interop.."};
  private static final String CONFORMANCE = "org.priodp.conformance..";

  // third-party stacks, by package
  private static final String[] HTTP = {"java.net.http..", "com.sun.net.httpserver..",
      "io.vertx..", "io.netty.."};
  private static final String[] JDBC = {"java.sql..", "javax.sql..", "com.zaxxer..",
      "org.sqlite..", "org.postgresql.."};
  private static final String JACKSON = "com.fasterxml.jackson..";
  private static final String[] LOGGING = {"org.slf4j..", "ch.qos.logback.."};

  static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("org.priodp");
    // a rule over no classes proves nothing: every module must be here
    for (String name : List.of("org.priodp.field.Field64", "org.priodp.noise.RandomSource",
        "org.priodp.vdaf.Prio3", "org.priodp.aggregator.dap.TaskId",
        "org.priodp.aggregator.datastore.jdbc.JdbcDatastore",
        "org.priodp.aggregator.core.TaskDefinition", "org.priodp.aggregator.client.DapClient",
        "org.priodp.aggregator.server.AggregatorServer", "org.priodp.aggregator.cli.PrioDp")) {
      assertTrue(classes.contain(name), name + " was not imported from the class path");
    }
  }

  @Test
  void coreKnowsNoHttpJdbcVertxNorJackson() {
    noClasses().that().resideInAPackage(CORE)
        .should().dependOnClassesThat().resideInAnyPackage(concat(HTTP, JDBC, JACKSON,
            DATASTORE_JDBC))
        .because("the core talks to the world through its ports (datastore, peer, clock,"
            + " randomness); the server and cli plug in HTTP and JDBC")
        .check(classes);
  }

  @Test
  void messagesKnowNoIoNorOtherAggregatorPackages() {
    // java.net.URI (and its parse exception) is a value, not I/O: the collector_identity task
    // extension of the attribution draft is an https URL, validated where the task is read
    noClasses().that().resideInAnyPackage(MESSAGES)
        .should().dependOnClassesThat(resideInAnyPackage(concat(
            new String[] {"java.net..", "java.nio.file..", "java.nio.channels.."}, HTTP, JDBC,
            JACKSON, LOGGING)).and(not(type(java.net.URI.class)))
            .and(not(type(java.net.URISyntaxException.class))))
        .because("the messages are pure codecs, HPKE and task parameters: no I/O")
        .check(classes);
    noClasses().that().resideInAnyPackage(MESSAGES)
        .should().dependOnClassesThat(resideInAPackage("org.priodp.aggregator..")
            .and(not(resideInAnyPackage(MESSAGES))))
        .because("every other aggregator module builds on the messages, never the reverse")
        .check(classes);
  }

  @Test
  void clientKnowsNoServerStackJdbcJsonMetricsPicocliNorLogging() {
    noClasses().that().resideInAPackage(CLIENT)
        .should().dependOnClassesThat().resideInAnyPackage(concat(
            new String[] {"io.vertx..", "io.netty..", "io.micrometer..", "io.prometheus..",
                "picocli..", DATASTORE, CORE}, JDBC, JACKSON, LOGGING, SERVER, CLI))
        .because("the Client artifact links into an application with nothing but the JDK's"
            + " HttpClient, the messages and the library modules")
        .check(classes);
  }

  @Test
  void onlyTheCliAndConformanceUseTheCommandLinePackages() {
    noClasses().that().resideOutsideOfPackages(concat(CLI, CONFORMANCE))
        .should().dependOnClassesThat().resideInAnyPackage(CLI)
        .because("the command line, the demo, provisioning and task files sit on top")
        .check(classes);
  }

  @Test
  void libraryModulesKnowNoAggregator() {
    noClasses().that().resideInAnyPackage("org.priodp.field..", "org.priodp.noise..",
            "org.priodp.vdaf..")
        .should().dependOnClassesThat().resideInAPackage("org.priodp.aggregator..")
        .because("any Java DAP aggregator can link field, noise and vdaf-adapter")
        .check(classes);
  }

  @Test
  void eachAggregatorModuleUsesOnlyTheModulesBelowIt() {
    ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("messages").definedBy(MESSAGES)
        .layer("datastore").definedBy(DATASTORE)
        .layer("core").definedBy(CORE)
        .layer("client").definedBy(CLIENT)
        .layer("server").definedBy(SERVER)
        .layer("cli").definedBy(CLI)
        .layer("conformance").definedBy(CONFORMANCE)
        .whereLayer("conformance").mayNotBeAccessedByAnyLayer()
        .whereLayer("cli").mayOnlyBeAccessedByLayers("conformance")
        .whereLayer("server").mayOnlyBeAccessedByLayers("cli", "conformance")
        .whereLayer("client").mayOnlyBeAccessedByLayers("cli", "conformance")
        .whereLayer("core").mayOnlyBeAccessedByLayers("server", "cli", "conformance")
        .whereLayer("datastore").mayOnlyBeAccessedByLayers("core", "server", "cli",
            "conformance")
        .whereLayer("messages").mayOnlyBeAccessedByLayers("datastore", "core", "client",
            "server", "cli", "conformance");
    layers.check(classes);
    noClasses().that().resideOutsideOfPackages(concat(new String[] {DATASTORE, CONFORMANCE},
            SERVER, CLI))
        .should().dependOnClassesThat().resideInAPackage(DATASTORE_JDBC)
        .because("only the modules that assemble a running aggregator open a JDBC datastore")
        .check(classes);
  }

  private static String[] concat(Object... parts) {
    return java.util.Arrays.stream(parts)
        .flatMap(p -> p instanceof String[] a ? java.util.Arrays.stream(a)
            : java.util.stream.Stream.of((String) p))
        .toArray(String[]::new);
  }
}

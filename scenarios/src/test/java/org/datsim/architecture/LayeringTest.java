package org.datsim.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of datsim's modules and packages, kept by ArchUnit rules over the main classes of every module (this
 * module's test classpath is the one place that sees sim-core, fabric-models, viz and scenarios together; test
 * classes are left out). {@link LayeringRulesFailTest} shows each rule failing on a fixture that breaks it.
 */
class LayeringTest {

    static final String CORE = "org.datsim.core..";
    static final String FABRIC = "org.datsim.fabric..";
    static final String DAT = "org.datsim.fabric.dat..";
    static final String SCENARIO = "org.datsim.scenario..";
    static final String VIZ = "org.datsim.viz..";
    static final String CLI = "org.datsim.scenario.cli..";

    /** The fabric models: everything of fabric-models below the DAT provider. */
    static final String[] MODEL_PACKAGES = {
        "org.datsim.fabric.hca",
        "org.datsim.fabric.link",
        "org.datsim.fabric.sw",
        "org.datsim.fabric.memory",
        "org.datsim.fabric.topology"
    };

    /** fabric-models' main sources, from this module's directory (where Maven runs the tests). */
    static final Path FABRIC_SOURCES = Path.of("..", "fabric-models", "src", "main", "java");

    /** sim-core (engine, time, params, trace, stats, random) depends on nothing of ours. */
    static final ArchRule CORE_DEPENDS_ON_NOTHING_OF_OURS =
            noClasses()
                    .that().resideInAPackage(CORE)
                    .should().dependOnClassesThat().resideInAnyPackage(FABRIC, SCENARIO, VIZ)
                    .because("sim-core is the bottom layer: every other module builds on it");

    /** The fabric models sit below the DAT provider: they speak the transport's language, not DAT's. */
    static final ArchRule MODELS_KNOW_NOTHING_OF_DAT =
            noClasses()
                    .that().resideInAnyPackage(
                            Arrays.stream(MODEL_PACKAGES).map(p -> p + "..").toArray(String[]::new))
                    .should().dependOnClassesThat().resideInAPackage(DAT)
                    .because("the provider (fabric.dat) translates between the models and DAT, in one place");

    /** viz reads traces and run outputs; it never depends on the fabric models (nor on scenarios). */
    static final ArchRule VIZ_NEVER_ON_FABRIC_MODELS =
            noClasses()
                    .that().resideInAPackage(VIZ)
                    .should().dependOnClassesThat().resideInAnyPackage(FABRIC, SCENARIO)
                    .because("viz works from traces and outputs, whatever model produced them");

    /** The command line is the top: nothing outside org.datsim.scenario.cli depends on it. */
    static final ArchRule NOTHING_DEPENDS_ON_THE_CLI =
            noClasses()
                    .that().resideOutsideOfPackage(CLI)
                    .should().dependOnClassesThat().resideInAPackage(CLI)
                    .because("the CLI only parses arguments and calls the layers below it");

    /**
     * No cycles among fabric's sub-packages (hca, link, sw, memory, topology, dat, bench). The root package
     * org.datsim.fabric is not a slice: it holds both the leaf FabricParams, used by the models, and the assembler
     * Fabric, which uses them, so it is above and below them at once (no class-level cycle).
     */
    static final ArchRule NO_CYCLES_AMONG_FABRIC_PACKAGES =
            slices().matching("org.datsim.fabric.(*)..").namingSlices("fabric.$1")
                    .should().beFreeOfCycles();

    static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.datsim");
        // the rules are only worth something if every module was imported
        for (String name : new String[] {
            "org.datsim.core.engine.Simulator",
            "org.datsim.fabric.Fabric",
            "org.datsim.fabric.dat.DatProvider",
            "org.datsim.viz.Timeline",
            "org.datsim.scenario.cli.DatsimCli"
        }) {
            assertTrue(classes.contain(name), "the import misses " + name);
        }
    }

    @Test
    void coreDependsOnNothingOfOurs() {
        CORE_DEPENDS_ON_NOTHING_OF_OURS.check(classes);
    }

    @Test
    void modelsKnowNothingOfDat() {
        MODELS_KNOW_NOTHING_OF_DAT.check(classes);
    }

    /**
     * The same rule on the sources: the models' remaining uses of {@code fabric.dat} are of compile-time constants
     * ({@code Dat.DTO_SUCCESS}, ...), which javac inlines, so only the imports show them (see {@link SourceImports}).
     */
    @Test
    void modelsImportNothingFromDat() {
        List<String> found = new ArrayList<>();
        for (String pkg : MODEL_PACKAGES) {
            found.addAll(SourceImports.violations(FABRIC_SOURCES, pkg, "org.datsim.fabric.dat"));
        }
        assertEquals(List.of(), found, "the fabric models name the DAT layer");
    }

    @Test
    void vizNeverDependsOnFabricModels() {
        VIZ_NEVER_ON_FABRIC_MODELS.check(classes);
    }

    @Test
    void nothingDependsOnTheCli() {
        NOTHING_DEPENDS_ON_THE_CLI.check(classes);
    }

    @Test
    void noCyclesAmongFabricPackages() {
        NO_CYCLES_AMONG_FABRIC_PACKAGES.check(classes);
    }
}

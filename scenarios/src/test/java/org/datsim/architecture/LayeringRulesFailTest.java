package org.datsim.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.datsim.core.archfixture.CoreUsingFabric;
import org.datsim.core.archfixture.CoreUsingOnlyCore;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.archfixturea.CycleA;
import org.datsim.fabric.archfixtureb.CycleB;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.hca.archfixture.ModelUsingDat;
import org.datsim.fabric.hca.archfixture.ModelUsingDatConstant;
import org.datsim.scenario.cli.DatsimCli;
import org.datsim.scenario.run.archfixture.RunUsingCli;
import org.datsim.viz.archfixture.VizUsingFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each rule of {@link LayeringTest} fails on a small fixture that breaks it (test classes in the rule's packages, with
 * the forbidden import) and passes on one that keeps it: the rules can fail, and fail for the forbidden dependency.
 */
class LayeringRulesFailTest {

    private static JavaClasses fixture(Class<?>... classes) {
        return new ClassFileImporter().importClasses(classes);
    }

    /** Evaluates the rule on the fixture; asserts a violation that names both the offender and what it used. */
    private static void assertViolated(ArchRule rule, JavaClasses classes, Class<?> offender, Class<?> used) {
        EvaluationResult result = rule.evaluate(classes);
        assertTrue(result.hasViolation(), "the rule should fail on " + offender.getSimpleName());
        String report = result.getFailureReport().toString();
        assertTrue(report.contains(offender.getName()), report);
        assertTrue(report.contains(used.getName()), report);
        assertThrows(AssertionError.class, () -> rule.check(classes));
    }

    @Test
    void coreUsingFabricFailsTheCoreRule() {
        assertViolated(LayeringTest.CORE_DEPENDS_ON_NOTHING_OF_OURS,
                fixture(CoreUsingFabric.class, Fabric.class), CoreUsingFabric.class, Fabric.class);
        LayeringTest.CORE_DEPENDS_ON_NOTHING_OF_OURS.check(fixture(CoreUsingOnlyCore.class));
    }

    @Test
    void aModelUsingTheProviderFailsTheDatRule() {
        assertViolated(LayeringTest.MODELS_KNOW_NOTHING_OF_DAT,
                fixture(ModelUsingDat.class, DatProvider.class), ModelUsingDat.class, DatProvider.class);
    }

    /** Why the DAT rule has a source twin: a constant is inlined, the bytecode no longer names Dat. */
    @Test
    void aModelUsingOnlyADatConstantIsInvisibleInBytecodeButNotInSource(@TempDir Path dir) throws IOException {
        assertFalse(LayeringTest.MODELS_KNOW_NOTHING_OF_DAT
                .evaluate(fixture(ModelUsingDatConstant.class, Dat.class)).hasViolation());

        Path pkg = Files.createDirectories(dir.resolve("org/datsim/fabric/hca"));
        Files.writeString(pkg.resolve("UsesDat.java"), String.join("\n",
                "package org.datsim.fabric.hca;",
                "import org.datsim.fabric.dat.Dat;",
                "/** Mentions {@link org.datsim.fabric.dat.DatProvider} in a comment only. */",
                "final class UsesDat {",
                "    int s = Dat.DTO_SUCCESS; // org.datsim.fabric.dat.Dat",
                "    int r = org.datsim.fabric.dat.Dat.DTO_RECEIVE;",
                "}"));
        Files.writeString(pkg.resolve("Clean.java"), String.join("\n",
                "package org.datsim.fabric.hca;",
                "// org.datsim.fabric.dat.Dat is not used here",
                "final class Clean {}"));
        assertEquals(List.of(
                        "org/datsim/fabric/hca/UsesDat.java:2: import org.datsim.fabric.dat.Dat;",
                        "org/datsim/fabric/hca/UsesDat.java:6: int r = org.datsim.fabric.dat.Dat.DTO_RECEIVE;"),
                SourceImports.violations(dir, "org.datsim.fabric.hca", "org.datsim.fabric.dat")
                        .stream().map(s -> s.replace('\\', '/')).toList());
    }

    @Test
    void vizUsingFabricFailsTheVizRule() {
        assertViolated(LayeringTest.VIZ_NEVER_ON_FABRIC_MODELS,
                fixture(VizUsingFabric.class, Fabric.class), VizUsingFabric.class, Fabric.class);
    }

    @Test
    void aPackageUsingTheCliFailsTheCliRule() {
        assertViolated(LayeringTest.NOTHING_DEPENDS_ON_THE_CLI,
                fixture(RunUsingCli.class, DatsimCli.class), RunUsingCli.class, DatsimCli.class);
        LayeringTest.NOTHING_DEPENDS_ON_THE_CLI.check(fixture(CoreUsingOnlyCore.class, DatsimCli.class));
    }

    @Test
    void aCycleBetweenFabricPackagesFailsTheCycleRule() {
        assertViolated(LayeringTest.NO_CYCLES_AMONG_FABRIC_PACKAGES,
                fixture(CycleA.class, CycleB.class), CycleA.class, CycleB.class);
        LayeringTest.NO_CYCLES_AMONG_FABRIC_PACKAGES.check(fixture(CycleA.class, Fabric.class, DatProvider.class));
    }
}

package org.datsim.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.datsim.fabric.sw.archfixture.CountsInAStatic;
import org.junit.jupiter.api.Test;

/**
 * No engine, model or consumer-process class (sim-core, fabric-models, and the scenario runner, consumer core and
 * workload runner) keeps state in a static field: every piece of a simulation's state belongs to an object
 * of that simulation, so that several simulations run side by side in one JVM (the ideal-FCT runs, sweeps, tests)
 * and the partitions of one simulation run on threads (issue 30, docs/parallel.md) without sharing anything. A
 * static final constant is fine; what the rule cannot see (a static final collection filled at run time) is kept out
 * by review: docs/parallel.md lists the shared state that remains.
 */
class NoSharedStateTest {

    static final ArchRule NO_STATIC_STATE_IN_ENGINE_OR_MODELS =
            fields()
                    .that().areDeclaredInClassesThat().resideInAnyPackage(LayeringTest.CORE, LayeringTest.FABRIC,
                            "org.datsim.scenario.run..", "org.datsim.scenario.consumer..", "org.datsim.scenario.workload..")
                    .and().areStatic()
                    .should().beFinal()
                    .because("a static field is shared by every simulation in the JVM and by every partition's thread");

    @Test
    void engineAndModelsHaveNoStaticState() {
        JavaClasses main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.datsim.core", "org.datsim.fabric", "org.datsim.scenario");
        assertTrue(main.contain("org.datsim.fabric.sw.Switch"), "the import misses the models");
        NO_STATIC_STATE_IN_ENGINE_OR_MODELS.check(main);
    }

    @Test
    void aModelCountingInAStaticFailsTheRule() {
        EvaluationResult r = NO_STATIC_STATE_IN_ENGINE_OR_MODELS.evaluate(
                new ClassFileImporter().importClasses(CountsInAStatic.class));
        assertTrue(r.hasViolation());
        String report = r.getFailureReport().toString();
        assertTrue(report.contains("forwarded"), report);
        assertTrue(!report.contains("LIMIT"), report);
    }
}

package org.datsim.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.nio.ByteBuffer;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.scenario.run.archfixture.WaiterOutsideCore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one consumer core (issue 26): {@code scenario.consumer} is below both ways a consumer comes in, scenario
 * processes ({@code scenario.run}) and bridged programs ({@code scenario.bridge}), and those two do not reach into
 * each other, so that what a call costs and how it is traced can only be decided in the core. The waits of both are
 * the core's ({@code BlockedWait} registers and removes every wake-up on an EVD or CNO), and a bridge request is
 * decoded once: only {@code RequestDecoder} reads a request's payload, so the executor ({@code BridgeCalls}), the
 * waits and the recorder ({@code Recorder}) read the typed record, never the frame.
 */
class ConsumerCoreTest {

    static final ArchRule CORE_BELOW_BOTH_WAYS_IN =
            noClasses()
                    .that().resideInAPackage("org.datsim.scenario.consumer..")
                    .should().dependOnClassesThat().resideInAnyPackage("org.datsim.scenario.run..",
                            "org.datsim.scenario.bridge..", "org.datsim.scenario.load..")
                    .because("the consumer core serves scenario processes and bridged programs alike");

    static final ArchRule BRIDGE_DOES_NOT_USE_THE_SCENARIO_INTERPRETER =
            noClasses()
                    .that().resideInAPackage("org.datsim.scenario.bridge..")
                    .should().dependOnClassesThat().resideInAPackage("org.datsim.scenario.run..")
                    .because("what bridged programs and scenario processes share lives in scenario.consumer");

    static final ArchRule INTERPRETER_DOES_NOT_USE_THE_BRIDGE =
            noClasses()
                    .that().resideInAPackage("org.datsim.scenario.run..")
                    .should().dependOnClassesThat().resideInAPackage("org.datsim.scenario.bridge..")
                    .because("what bridged programs and scenario processes share lives in scenario.consumer");

    private static DescribedPredicate<JavaMethodCall> calls(Class<?> owner, String prefix) {
        return new DescribedPredicate<>("a method of " + owner.getSimpleName() + " named " + prefix + "*") {
            @Override
            public boolean test(JavaMethodCall c) {
                return c.getTargetOwner().isAssignableTo(owner) && c.getName().startsWith(prefix);
            }
        };
    }

    static final ArchRule WAITS_ARE_THE_CONSUMER_CORES =
            noClasses()
                    .that().resideOutsideOfPackage("org.datsim.scenario.consumer..")
                    .should().callMethodWhere(calls(DatProvider.class, "evdSetWaiter"))
                    .orShould().callMethodWhere(calls(DatProvider.class, "cnoWaiter"))
                    .because("a consumer blocks in dat_evd_wait or dat_cno_wait through the core's BlockedWait");

    static final ArchRule REQUESTS_ARE_DECODED_ONCE =
            noClasses()
                    .that().resideInAPackage("org.datsim.scenario.bridge..")
                    .and().haveSimpleName("BridgeCalls").or().haveSimpleName("Recorder")
                    .or().haveSimpleName("BridgeWait")
                    .should().callMethodWhere(calls(ByteBuffer.class, "get"))
                    .because("a request is decoded once, by RequestDecoder, into a BridgeCall");

    static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.datsim.scenario");
    }

    @Test
    void theCoreIsBelowBothWaysIn() {
        CORE_BELOW_BOTH_WAYS_IN.check(classes);
    }

    @Test
    void theBridgeDoesNotUseTheScenarioInterpreter() {
        BRIDGE_DOES_NOT_USE_THE_SCENARIO_INTERPRETER.check(classes);
    }

    @Test
    void theInterpreterDoesNotUseTheBridge() {
        INTERPRETER_DOES_NOT_USE_THE_BRIDGE.check(classes);
    }

    @Test
    void waitsAreTheConsumerCores() {
        WAITS_ARE_THE_CONSUMER_CORES.check(classes);
    }

    @Test
    void requestsAreDecodedOnce() {
        REQUESTS_ARE_DECODED_ONCE.check(classes);
    }

    @Test
    void theRulesFailOnFixturesThatBreakThem() {
        JavaClasses waiter = new ClassFileImporter().importClasses(WaiterOutsideCore.class);
        EvaluationResult w = WAITS_ARE_THE_CONSUMER_CORES.evaluate(waiter);
        assertTrue(w.hasViolation() && w.getFailureReport().toString().contains("evdSetWaiter"),
                w.getFailureReport().toString());
        JavaClasses decoder = new ClassFileImporter()
                .importClasses(org.datsim.scenario.bridge.archfixture.Recorder.class);
        EvaluationResult d = REQUESTS_ARE_DECODED_ONCE.evaluate(decoder);
        assertTrue(d.hasViolation() && d.getFailureReport().toString().contains("getInt"),
                d.getFailureReport().toString());
    }
}

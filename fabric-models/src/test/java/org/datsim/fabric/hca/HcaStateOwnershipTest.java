package org.datsim.fabric.hca;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Which part of the HCA may write which state (issue 26 point 4), checked on the compiled classes of fabric-models
 * with ArchUnit. A class here means a top-level class with its lambdas and nested classes.
 *
 * <ul>
 * <li>A queue pair's per-part state ({@link SendState}, {@link TransportState}, {@link ResponderState},
 * {@link ReadResponderState}, {@link CompletionState}, {@link PipelineState}) is written only by its owner part or by
 * its own methods; those methods are called only by the owner or by the callers listed in {@link #STATE_CALLERS}; its
 * queues are touched only by the owner and the readers listed in {@link #QUEUE_READERS}.
 * <li>{@link QueuePair}'s own fields (identity and connection) are written only by QueuePair.
 * <li>{@link WorkRequest}'s fields, the request as posted, are written only by WorkRequest (its constructor, the
 * reuse of a slot, and its before-the-post setters).
 * <li>Each field of a request's progress ({@link RequestProgress}) is written only by the parts named for it in
 * {@link #PROGRESS_WRITERS}, and every progress field is named there.
 * </ul>
 */
class HcaStateOwnershipTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("org.datsim.fabric");

    /** Each per-part state of a queue pair and the one part that owns (writes) it. */
    static final Map<String, String> STATE_OWNERS = Map.of(
            "SendState", "SendEngine",
            "TransportState", "ReliableTransport",
            "ResponderState", "Responder",
            "ReadResponderState", "ResponseEngine",
            "CompletionState", "Completions",
            "PipelineState", "ReceivePipeline");

    /** The methods of a per-part state that a class other than its owner may call, and who. */
    static final Map<String, Set<String>> STATE_CALLERS = Map.ofEntries(
            Map.entry("SendState.connected", Set.of("QueuePair")),
            Map.entry("SendState.setMaxReadsOut", Set.of("QueuePair")),
            Map.entry("TransportState.connected", Set.of("QueuePair")),
            // a lazy trim of finished requests at the head of the rung queue: changes nothing a reader sees
            Map.entry("TransportState.firstUnfinished", Set.of("QueuePair", "Completions")),
            Map.entry("ResponderState.connected", Set.of("QueuePair")),
            Map.entry("ResponderState.flushReceives", Set.of("Completions")),
            Map.entry("ResponderState.reset", Set.of("Completions")),
            Map.entry("ReadResponderState.setMaxReadsIn", Set.of("QueuePair")),
            Map.entry("ReadResponderState.lastResponseSent", Set.of("SendEngine")),
            Map.entry("ReadResponderState.flush", Set.of("Completions")),
            Map.entry("ReadResponderState.reset", Set.of("Completions")));

    /** The queues of a per-part state that a class other than its owner reads (iterates or sizes, never changes). */
    static final Map<String, Set<String>> QUEUE_READERS = Map.of(
            "CompletionState.outstanding", Set.of("SendEngine", "PayloadReader", "HcaChoices", "QueuePair"),
            "TransportState.rung", Set.of("SendEngine"),
            "ResponderState.receives", Set.of("QueuePair"));

    /** Each field of a request's progress and the parts that advance it. */
    static final Map<String, Set<String>> PROGRESS_WRITERS = Map.ofEntries(
            // the completions: the outcome and its report
            Map.entry("status", Set.of("Completions")),
            Map.entry("done", Set.of("Completions")),
            Map.entry("reported", Set.of("Completions")),
            Map.entry("finishedPs", Set.of("Completions")),
            Map.entry("heldBehind", Set.of("Completions")),
            Map.entry("overtookRead", Set.of("Completions")),
            // the payload reader keeps what a Send or Write carried before an earlier Read landed; the completions
            // compare and drop it when the Read finishes
            Map.entry("capturedBeforeRead", Set.of("PayloadReader", "Completions")),
            Map.entry("capturedAt", Set.of("PayloadReader", "Completions")),
            Map.entry("capturedBytes", Set.of("PayloadReader", "Completions")),
            // the packets and payload reads holding it (WorkRequest.packetTaken/packetReleased)
            Map.entry("references", Set.of("WorkRequest")),
            // the send engine: taking it up, fences, credits, inline data, the packet arbiter, the CC stream
            Map.entry("started", Set.of("SendEngine")),
            Map.entry("fenceTraced", Set.of("SendEngine")),
            Map.entry("creditTraced", Set.of("SendEngine")),
            Map.entry("readCounted", Set.of("SendEngine")),
            Map.entry("inlineData", Set.of("SendEngine")),
            Map.entry("txNext", Set.of("SendEngine")),
            Map.entry("txReadyPs", Set.of("SendEngine")),
            Map.entry("txReadPos", Set.of("SendEngine")),
            Map.entry("txReadIn", Set.of("SendEngine")),
            Map.entry("ccBase", Set.of("SendEngine")),
            // the reliable transport: doorbell order, sequence numbers, retransmission
            Map.entry("ringOrder", Set.of("ReliableTransport")),
            Map.entry("seq", Set.of("ReliableTransport")),
            Map.entry("inRung", Set.of("ReliableTransport", "TransportState")),
            Map.entry("gapAt", Set.of("ReliableTransport")),
            Map.entry("retransmits", Set.of("ReliableTransport")),
            Map.entry("rnrRetries", Set.of("ReliableTransport")),
            // the receive pipeline: responses placed at the requester
            Map.entry("responses", Set.of("ReceivePipeline")),
            Map.entry("placed", Set.of("ReceivePipeline")),
            // the bytes transferred: placed responses, an acknowledged request, a filled receive
            Map.entry("transferred", Set.of("ReceivePipeline", "ReliableTransport", "Responder")),
            // the responder: receives taken and filled, remote failures, delivery
            Map.entry("takenBy", Set.of("Responder")),
            Map.entry("remoteFailed", Set.of("Responder")),
            Map.entry("delivered", Set.of("Responder")),
            Map.entry("receivedSolicited", Set.of("Responder")),
            Map.entry("receivedImmediate", Set.of("Responder")),
            Map.entry("receivedImmediateData", Set.of("Responder")),
            // the response engine: an atomic executed once
            Map.entry("atomicExecuted", Set.of("ResponseEngine")),
            Map.entry("atomicOriginal", Set.of("ResponseEngine")),
            // explored runs only: the post time (the HCA's face) and the choices made
            Map.entry("postedPs", Set.of("Hca")),
            Map.entry("readSnapshot", Set.of("HcaChoices")),
            Map.entry("fetchChoice", Set.of("HcaChoices")),
            Map.entry("fetchLater", Set.of("HcaChoices")),
            Map.entry("payloadChoice", Set.of("HcaChoices")));

    /** The classes that may write a field (besides a per-part state's own methods), or null if unrestricted. */
    private static Set<String> writersOf(JavaField f) {
        String owner = f.getOwner().getSimpleName();
        if (!f.getOwner().getPackageName().equals(QueuePair.class.getPackageName())) {
            return null;
        }
        if (STATE_OWNERS.containsKey(owner)) {
            return Set.of(owner, STATE_OWNERS.get(owner));
        }
        switch (owner) {
            case "QueuePair":
                return Set.of("QueuePair");
            case "WorkRequest":
                return Set.of("WorkRequest");
            case "RequestProgress":
                Set<String> w = new TreeSet<>(PROGRESS_WRITERS.getOrDefault(f.getName(), Set.of()));
                w.add("RequestProgress"); // its one reset
                return w;
            default:
                return null;
        }
    }

    /** The top-level class a piece of code belongs to (a lambda's or a nested class's enclosing class). */
    private static String topLevel(JavaClass c) {
        String name = c.getName();
        int dollar = name.indexOf('$');
        String outer = dollar < 0 ? name : name.substring(0, dollar);
        return outer.substring(outer.lastIndexOf('.') + 1);
    }

    private static final ArchCondition<JavaClass> WRITE_ONLY_STATE_THEY_OWN =
            new ArchCondition<>("write only the HCA state they own") {
                @Override
                public void check(JavaClass c, ConditionEvents events) {
                    String from = topLevel(c);
                    for (JavaFieldAccess a : c.getFieldAccessesFromSelf()) {
                        Optional<JavaField> f = a.getTarget().resolveMember();
                        if (a.getAccessType() != JavaFieldAccess.AccessType.SET || f.isEmpty()) {
                            continue;
                        }
                        Set<String> writers = writersOf(f.get());
                        if (writers != null && !writers.contains(from)) {
                            events.add(SimpleConditionEvent.violated(a, a.getDescription() + ": "
                                    + f.get().getOwner().getSimpleName() + "." + f.get().getName()
                                    + " is written only by " + writers));
                        }
                    }
                }
            };

    private static final ArchCondition<JavaClass> CALL_STATE_METHODS_ONLY_AS_ALLOWED =
            new ArchCondition<>("call a queue pair's per-part state's methods only as its owner or a listed caller") {
                @Override
                public void check(JavaClass c, ConditionEvents events) {
                    String from = topLevel(c);
                    for (JavaMethodCall call : c.getMethodCallsFromSelf()) {
                        String state = call.getTargetOwner().getSimpleName();
                        if (!STATE_OWNERS.containsKey(state) || from.equals(state)
                                || from.equals(STATE_OWNERS.get(state))) {
                            continue;
                        }
                        String method = state + "." + call.getName();
                        if (!STATE_CALLERS.getOrDefault(method, Set.of()).contains(from)) {
                            events.add(SimpleConditionEvent.violated(call, call.getDescription() + ": " + method
                                    + " is called only by " + STATE_OWNERS.get(state) + " and "
                                    + STATE_CALLERS.getOrDefault(method, Set.of())));
                        }
                    }
                }
            };

    private static final ArchCondition<JavaClass> TOUCH_STATE_QUEUES_ONLY_AS_ALLOWED =
            new ArchCondition<>("touch a queue pair's per-part queues only as their owner or a listed reader") {
                @Override
                public void check(JavaClass c, ConditionEvents events) {
                    String from = topLevel(c);
                    for (JavaFieldAccess a : c.getFieldAccessesFromSelf()) {
                        Optional<JavaField> f = a.getTarget().resolveMember();
                        if (f.isEmpty() || !f.get().getRawType().isAssignableTo(java.util.Collection.class)) {
                            continue;
                        }
                        String state = f.get().getOwner().getSimpleName();
                        if (!STATE_OWNERS.containsKey(state) || from.equals(state)
                                || from.equals(STATE_OWNERS.get(state))) {
                            continue;
                        }
                        String queue = state + "." + f.get().getName();
                        if (!QUEUE_READERS.getOrDefault(queue, Set.of()).contains(from)) {
                            events.add(SimpleConditionEvent.violated(a, a.getDescription() + ": " + queue
                                    + " is touched only by " + STATE_OWNERS.get(state) + " and "
                                    + QUEUE_READERS.getOrDefault(queue, Set.of())));
                        }
                    }
                }
            };

    @Test
    void everyClassWritesOnlyTheHcaStateItOwns() {
        classes().should(WRITE_ONLY_STATE_THEY_OWN).check(CLASSES);
    }

    @Test
    void aQueuePairsPerPartStateIsChangedOnlyThroughItsOwnerOrItsListedCallers() {
        classes().should(CALL_STATE_METHODS_ONLY_AS_ALLOWED).check(CLASSES);
    }

    @Test
    void aQueuePairsPerPartQueuesAreTouchedOnlyByTheirOwnerOrListedReaders() {
        classes().should(TOUCH_STATE_QUEUES_ONLY_AS_ALLOWED).check(CLASSES);
    }

    /** A new progress field must get its writers named above (else nobody may write it but the reset). */
    @Test
    void everyProgressFieldHasItsWritersNamed() {
        Set<String> fields = new TreeSet<>();
        for (Field f : RequestProgress.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                fields.add(f.getName());
            }
        }
        assertEquals(fields, new TreeSet<>(PROGRESS_WRITERS.keySet()));
    }

    /** The rules see the parts: the import found the classes the tables name (a renamed part fails here). */
    @Test
    void theTablesNameClassesThatExist() {
        Set<String> names = new TreeSet<>();
        for (JavaClass c : CLASSES) {
            names.add(c.getSimpleName());
        }
        Set<String> named = new TreeSet<>(STATE_OWNERS.keySet());
        named.addAll(STATE_OWNERS.values());
        PROGRESS_WRITERS.values().forEach(named::addAll);
        STATE_CALLERS.values().forEach(named::addAll);
        QUEUE_READERS.values().forEach(named::addAll);
        named.removeAll(names);
        assertEquals(Set.of(), named);
    }

    /** A class that is no HCA part and reaches into state it does not own: each rule must flag it. */
    static final class Trespasser {
        void trespass(QueuePair qp, WorkRequest wr) {
            qp.send.queued = true;
            wr.seq = 3;
            wr.opId = 4;
            qp.transport.reset();
            qp.completion.outstanding.clear();
        }
    }

    /** The rules fail on a class that writes, resets or touches state it does not own (they are not vacuous). */
    @Test
    void theRulesFlagAClassThatWritesStateItDoesNotOwn() {
        JavaClasses withTrespasser = new ClassFileImporter().importClasses(Trespasser.class, QueuePair.class,
                WorkRequest.class, RequestProgress.class, SendState.class, TransportState.class,
                CompletionState.class);
        AssertionError writes = assertThrows(AssertionError.class,
                () -> classes().should(WRITE_ONLY_STATE_THEY_OWN).check(withTrespasser));
        assertTrue(writes.getMessage().contains("SendState.queued is written only by"), writes.getMessage());
        assertTrue(writes.getMessage().contains("RequestProgress.seq is written only by"), writes.getMessage());
        assertTrue(writes.getMessage().contains("WorkRequest.opId is written only by"), writes.getMessage());
        AssertionError calls = assertThrows(AssertionError.class,
                () -> classes().should(CALL_STATE_METHODS_ONLY_AS_ALLOWED).check(withTrespasser));
        assertTrue(calls.getMessage().contains("TransportState.reset"), calls.getMessage());
        AssertionError queues = assertThrows(AssertionError.class,
                () -> classes().should(TOUCH_STATE_QUEUES_ONLY_AS_ALLOWED).check(withTrespasser));
        assertTrue(queues.getMessage().contains("CompletionState.outstanding"), queues.getMessage());
    }
}

package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.time.SimTime;

/**
 * One validated step of a process: a call, or the beginning or end of a {@code repeat} block. A process's steps are
 * a flat list; a block's two ends name each other's index.
 *
 * @param index the step's index in its process's flat list
 * @param path the JSON path of the step in the file, for messages
 * @param spec the call's declaration (for a repeat step, {@link CallCatalog#REPEAT})
 * @param node the step's JSON object, already validated
 * @param kind {@link #CALL}, {@link #REPEAT_BEGIN} or {@link #REPEAT_END}
 * @param loopVar the repeat block's variable, or null
 * @param partner the index of the block's other end, or -1 for a call
 * @param typed the call typed by the loader ({@link TypedCall}), or null for a repeat step
 * @param name the step's {@code "name"}, which other processes' {@code "after"} waits for, or null
 * @param after the steps its {@code "after"} waits for, each {@code "PROCESS/STEP"} (empty when it has none)
 * @param out the name its {@code "out"} binds the call's result to ({@code NAME} or {@code NAME[expr]}), or null
 * @param repeat a repeat block's count ({@code "repeat"}, evaluated when the block begins), or {@link Arg#NONE}
 *     (also for a block with only a time bound: it has no count)
 * @param expect the step's {@code "expect"} typed ({@link Expect}), or null when it has none
 * @param observe the step's {@code "observe"} typed ({@link Observe}), or null when it has none
 * @param forPs a repeat block's time bound ({@code "for"}) in picoseconds of simulated time from the moment the
 *     block begins, or {@link #NO_TIME_BOUND}
 */
public record Step(int index, String path, CallSpec spec, ObjectNode node, int kind, String loopVar, int partner,
        TypedCall typed, String name, List<String> after, String out, Arg repeat, Expect expect, Observe observe,
        long forPs) {

    /** {@link #forPs()} of a step that is not a repeat block with a {@code "for"}. */
    public static final long NO_TIME_BOUND = -1;

    /** A call. */
    public static final int CALL = 0;
    /** The beginning of a repeat block: evaluates the count. */
    public static final int REPEAT_BEGIN = 1;
    /** The end of a repeat block: loops back or leaves. */
    public static final int REPEAT_END = 2;

    /**
     * A call step.
     *
     * @param index the step's index in its process's flat list
     * @param path the JSON path
     * @param spec the call's declaration
     * @param node the call's JSON object
     */
    public Step(int index, String path, CallSpec spec, ObjectNode node) {
        this(index, path, spec, node, CALL, null, -1, TypedCall.of(spec, node, path), text(node.get("name")),
                after(node.get("after")), text(node.get("out")), Arg.NONE, Expect.of(node.get("expect")),
                Observe.of(node.get("observe")), NO_TIME_BOUND);
    }

    /**
     * The beginning or end of a repeat block.
     *
     * @param index the step's index in its process's flat list
     * @param path the JSON path
     * @param spec {@link CallCatalog#REPEAT}
     * @param node the block's JSON object
     * @param kind {@link #REPEAT_BEGIN} or {@link #REPEAT_END}
     * @param loopVar the block's variable, or null
     * @param partner the index of the block's other end
     */
    public Step(int index, String path, CallSpec spec, ObjectNode node, int kind, String loopVar, int partner) {
        this(index, path, spec, node, kind, loopVar, partner, null, null, List.of(), null,
                node.has("repeat") ? new Arg(node.get("repeat"), path + ".repeat") : Arg.NONE, null, null,
                timeBound(node));
    }

    /** A block's {@code "for"} in picoseconds (validated by the loader), or {@link #NO_TIME_BOUND}. */
    private static long timeBound(JsonNode node) {
        JsonNode f = node.get("for");
        if (f == null || !f.isTextual()) {
            return NO_TIME_BOUND;
        }
        try {
            return SimTime.parse(f.asText());
        } catch (IllegalArgumentException e) {
            return NO_TIME_BOUND; // reported by the loader, which refuses the file
        }
    }

    private static String text(JsonNode n) {
        return n == null ? null : n.asText();
    }

    /** A validated {@code "after"}: one step or an array of them. */
    private static List<String> after(JsonNode a) {
        if (a == null) {
            return List.of();
        }
        if (!a.isArray()) {
            return List.of(a.asText());
        }
        List<String> out = new ArrayList<>(a.size());
        for (JsonNode one : a) {
            out.add(one.asText());
        }
        return List.copyOf(out);
    }

    /** Returns the typed data transfer call, or null if the step is not one. */
    public DtoCall dto() {
        return typed instanceof DtoCall ? (DtoCall) typed : null;
    }

    /** Returns the typed call that takes events, or null if the step is not one. */
    public EventCall event() {
        return typed instanceof EventCall ? (EventCall) typed : null;
    }
}

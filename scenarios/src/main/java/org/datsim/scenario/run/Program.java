package org.datsim.scenario.run;

import java.util.List;
import org.datsim.scenario.consumer.CallCost;
import org.datsim.scenario.load.Step;

/**
 * A process's steps prepared for the interpreter, once per list of steps (the processes of a template share
 * theirs): which family of calls executes each call, and what the call costs the CPU (declared with the call in
 * {@code CallCatalog}). The interpreter reads both by step index instead of testing the call's name on every step.
 */
final class Program {

    /** The families of calls, each executed by its own class. */
    enum Family {
        /** {@link ObjectCalls}. */
        OBJECTS,
        /** {@link QueryCalls}. */
        QUERIES,
        /** {@link ConnectionCalls}. */
        CONNECTIONS,
        /** {@link DtoCalls}. */
        DTO,
        /** {@link Wait} and {@link EventCalls}. */
        EVENTS,
        /** {@link CpuCalls}. */
        CPU
    }

    private final Family[] families;
    private final CallCost[] costs;

    Program(List<Step> steps) {
        families = new Family[steps.size()];
        costs = new CallCost[steps.size()];
        for (Step s : steps) {
            if (s.kind() == Step.CALL) {
                families[s.index()] = familyOf(s.spec().name());
                costs[s.index()] = s.spec().cost();
            }
        }
    }

    /** Returns the family of a call step, or null if no family executes the call. */
    Family family(int step) {
        return families[step];
    }

    /** Returns what a call step costs the consumer's CPU, as its call declares ({@code CallCatalog}). */
    CallCost cost(int step) {
        return costs[step];
    }

    /** Returns the family that executes a call, or null if none does. */
    static Family familyOf(String call) {
        if (ObjectCalls.CALLS.contains(call)) {
            return Family.OBJECTS;
        }
        if (QueryCalls.CALLS.contains(call)) {
            return Family.QUERIES;
        }
        if (ConnectionCalls.CALLS.contains(call)) {
            return Family.CONNECTIONS;
        }
        if (DtoCalls.CALLS.contains(call)) {
            return Family.DTO;
        }
        if (EventCalls.CALLS.contains(call)) {
            return Family.EVENTS;
        }
        return CpuCalls.CALLS.contains(call) ? Family.CPU : null;
    }
}

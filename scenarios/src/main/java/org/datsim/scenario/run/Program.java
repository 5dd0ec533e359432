package org.datsim.scenario.run;

import java.util.List;
import org.datsim.scenario.load.Step;

/**
 * A process's steps prepared for the interpreter, once per list of steps (the processes of a template share
 * theirs): which family of calls executes each call, and which CPU overhead the process is charged before it. The
 * interpreter reads both by step index instead of testing the call's name on every step.
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

    /** No CPU time before the call: waits, dequeues, the CPU's own work, sleeps. */
    static final int NO_OVERHEAD = 0;
    /** {@code cpu.call_overhead} before the call. */
    static final int CALL_OVERHEAD = 1;
    /** {@code cpu.post_overhead} before the call: the endpoint posts and dat_rmr_bind. */
    static final int POST_OVERHEAD = 2;

    private final Family[] families;
    private final byte[] overheads;

    Program(List<Step> steps) {
        families = new Family[steps.size()];
        overheads = new byte[steps.size()];
        for (Step s : steps) {
            if (s.kind() == Step.CALL) {
                families[s.index()] = familyOf(s.spec().name());
                overheads[s.index()] = (byte) overheadOf(s.spec().name());
            }
        }
    }

    /** Returns the family of a call step, or null if no family executes the call. */
    Family family(int step) {
        return families[step];
    }

    /** Returns the overhead class of a call step: {@link #NO_OVERHEAD}, {@link #CALL_OVERHEAD} or {@link #POST_OVERHEAD}. */
    int overhead(int step) {
        return overheads[step];
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

    private static int overheadOf(String c) {
        if (c.startsWith("dat_ep_post_") || c.equals("dat_rmr_bind")) {
            return POST_OVERHEAD;
        }
        if (c.equals("dat_evd_wait") || c.equals("dat_cno_wait") || c.equals("dat_evd_dequeue") || c.startsWith("mem_")
                || c.equals("sleep")) {
            return NO_OVERHEAD;
        }
        return CALL_OVERHEAD;
    }
}

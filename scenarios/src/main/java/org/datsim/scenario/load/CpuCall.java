package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A typed call of the consumer's CPU (not a DAT call): {@code mem_write}, {@code mem_read} or {@code sleep}. The
 * interpreter switches over {@link #kind()}, every kind a case and no default, and reads the record's fields.
 */
public sealed interface CpuCall extends TypedCall {

    /** The CPU calls, each with its name. */
    enum Kind implements CallKind {
        /** mem_write: {@link MemWrite}. */
        MEM_WRITE("mem_write"),
        /** mem_read: {@link MemRead}. */
        MEM_READ("mem_read"),
        /** sleep: {@link Sleep}. */
        SLEEP("sleep");

        private final String call;

        Kind(String call) {
            this.call = call;
        }

        @Override
        public String call() {
            return call;
        }

        /** Returns the kind of a call, or null if it is no CPU call. */
        public static Kind of(String call) {
            return CallKind.of(values(), call);
        }
    }

    /** Returns which call this is. */
    Kind kind();

    /**
     * A typed mem_write.
     *
     * @param lmr the region written
     * @param offset the offset in it (default 0)
     * @param data the data object written ({"fill", "length"}, text or hex)
     */
    record MemWrite(Arg lmr, Arg offset, Arg data) implements CpuCall {
        @Override
        public Kind kind() {
            return Kind.MEM_WRITE;
        }
    }

    /**
     * A typed mem_read.
     *
     * @param lmr the region read
     * @param offset the offset in it (default 0)
     * @param length how many bytes (default 0)
     */
    record MemRead(Arg lmr, Arg offset, Arg length) implements CpuCall {
        @Override
        public Kind kind() {
            return Kind.MEM_READ;
        }
    }

    /**
     * A typed sleep.
     *
     * @param time how long the CPU computes
     */
    record Sleep(Arg time) implements CpuCall {
        @Override
        public Kind kind() {
            return Kind.SLEEP;
        }
    }

    /**
     * Types a validated step.
     *
     * @return the typed call, or null if the call is no CPU call
     */
    static CpuCall of(CallSpec spec, ObjectNode step, String path) {
        Kind kind = Kind.of(spec.name());
        if (kind == null) {
            return null;
        }
        return switch (kind) {
            case MEM_WRITE -> new MemWrite(Arg.of(spec, step, path, "lmr"), Arg.of(spec, step, path, "offset"),
                    Arg.of(spec, step, path, "data"));
            case MEM_READ -> new MemRead(Arg.of(spec, step, path, "lmr"), Arg.of(spec, step, path, "offset"),
                    Arg.of(spec, step, path, "length"));
            case SLEEP -> new Sleep(Arg.of(spec, step, path, "time"));
        };
    }
}

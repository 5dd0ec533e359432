package org.datsim.scenario.load;

import static org.datsim.scenario.load.Problems.show;

import com.fasterxml.jackson.databind.JsonNode;
import org.datsim.core.time.ByteSize;
import org.datsim.core.time.SimTime;

/**
 * Checks the quantities a scenario writes with units, sizes ({@code "4KiB"}) and times ({@code "1.5us"}), and keeps
 * what it parsed in the scenario's {@link Operands} so that nothing parses them again when the scenario runs.
 */
final class QuantityChecker {

    /** The longest duration a scenario may name: a million seconds, far from the 2^63 ps the clock can count. */
    static final long MAX_DURATION_PS = 1_000_000L * SimTime.S;

    private final Problems problems;
    private final Operands.Builder operands;

    QuantityChecker(Problems problems, Operands.Builder operands) {
        this.problems = problems;
        this.operands = operands;
    }

    /** Checks a time such as {@code "250ns"}; returns it in picoseconds, or null after reporting a problem. */
    Long duration(JsonNode n, String path) {
        if (!n.isTextual()) {
            problems.add(path, "expected a time such as \"250ns\" or \"1.5us\", found " + show(n));
            return null;
        }
        try {
            long t = SimTime.parse(n.asText());
            if (t > MAX_DURATION_PS) {
                problems.add(path, "expected a time of at most 1000000s, found \"" + n.asText() + "\"");
                return null;
            }
            operands.duration(n.asText(), t);
            return t;
        } catch (IllegalArgumentException e) {
            problems.add(path, e.getMessage());
            return null;
        }
    }

    /** Checks a size: a whole number of bytes, or a string such as {@code "4KiB"}. */
    void size(JsonNode v, String path) {
        if (v.isIntegralNumber() && v.asLong() >= 0) {
            return;
        }
        if (v.isTextual()) {
            try {
                operands.size(v.asText(), ByteSize.parse(v.asText()));
                return;
            } catch (IllegalArgumentException e) {
                problems.add(path, e.getMessage());
                return;
            }
        }
        problems.add(path, "expected " + ArgType.SIZE.expected() + ", found " + show(v));
    }
}

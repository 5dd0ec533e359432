package org.datsim.scenario.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one execution let its consumers observe, step by step: the DAT_RETURN of every call, the event every
 * dat_evd_wait and dat_evd_dequeue took (type, status, operation, cookie, length), and the bytes every mem_read
 * returned. Kept per process in the scenario's order of processes, each in the order its steps ran, so that two
 * executions that interleave the processes differently but observe the same values have equal observations.
 * Times are never part of an observation.
 */
public final class StepObservations {

    /**
     * One observed value.
     *
     * @param process the process
     * @param step the step's index in its process
     * @param path the step's JSON path
     * @param call the call
     * @param key what was observed: {@code ret}, {@code event} or {@code data}
     * @param value the value, as text
     */
    public record Entry(String process, int step, String path, String call, String key, String value) {

        /** Returns the entry as one line: where, then key=value. */
        @Override
        public String toString() {
            return process + " " + path + " " + call + ": " + key + "=" + value;
        }
    }

    private final Map<String, List<Entry>> byProcess = new LinkedHashMap<>();

    /**
     * Creates the observations of an execution of processes named in the scenario's order.
     *
     * @param processes the process names
     */
    public StepObservations(List<String> processes) {
        for (String p : processes) {
            byProcess.put(p, new ArrayList<>());
        }
    }

    void record(String process, int step, String path, String call, String key, String value) {
        byProcess.computeIfAbsent(process, k -> new ArrayList<>()).add(new Entry(process, step, path, call, key,
                value));
    }

    /** Returns every entry, per process in the scenario's order, each process's in the order its steps ran. */
    public List<Entry> entries() {
        List<Entry> all = new ArrayList<>();
        byProcess.values().forEach(all::addAll);
        return all;
    }

    /**
     * Describes bytes as runs of equal bytes, such as {@code 0x22*65472 0x33*64}; more than 16 runs end with the
     * count of runs and a hash of all the bytes, so that different contents stay different.
     *
     * @param b the bytes
     * @return the description
     */
    public static String describe(byte[] b) {
        if (b.length == 0) {
            return "(0 bytes)";
        }
        StringBuilder s = new StringBuilder();
        int runs = 0;
        int i = 0;
        while (i < b.length) {
            int j = i;
            while (j < b.length && b[j] == b[i]) {
                j++;
            }
            runs++;
            if (runs <= 16) {
                if (s.length() > 0) {
                    s.append(' ');
                }
                s.append(String.format("0x%02x*%d", b[i] & 0xff, j - i));
            }
            i = j;
        }
        if (runs > 16) {
            s.append(String.format(" ... (%d runs, hash %08x)", runs, java.util.Arrays.hashCode(b)));
        }
        return s.toString();
    }
}

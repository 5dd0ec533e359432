package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.datsim.scenario.load.ObserveKind;

/**
 * The observation vector of one run: what each step with {@code "observe": "NAME"} observed, by name, in step order
 * (the processes in file order, then each process's steps in file order, then the index of an indexed name). A step
 * that runs more than once under the same name keeps its last value. Values are written as the scenario writes
 * expectations: bytes as {@code {"fill": 1, "length": 8}} when they are all equal, else {@code {"hex": "..."}};
 * statuses, events and DAT_RETURNs by name. {@link OutcomeCheck} compares a vector with a scenario's outcomes.
 */
public final class Observations {

    /**
     * One observation.
     *
     * @param key its name ({@code r1}, {@code r[2]}, {@code client_h1/r1})
     * @param kind what it records
     * @param value its value as JSON
     * @param bytes the bytes read ({@link ObserveKind#DATA}), else null
     * @param ret the DAT_RETURN when the value is one ({@link ObserveKind#RET}, or a wait that took no event)
     * @param isRet true if the value is that DAT_RETURN
     */
    public record Observation(String key, ObserveKind kind, JsonNode value, byte[] bytes, int ret, boolean isRet) {
    }

    /** Where an observation sorts: its process, its step, its index. */
    private record Place(int process, int step, long index, String key) implements Comparable<Place> {
        @Override
        public int compareTo(Place o) {
            int c = Integer.compare(process, o.process);
            if (c == 0) {
                c = Integer.compare(step, o.step);
            }
            if (c == 0) {
                c = Long.compare(index, o.index);
            }
            return c != 0 ? c : key.compareTo(o.key);
        }
    }

    private final TreeMap<Place, Observation> ordered = new TreeMap<>();
    /** Lookups only: the place of each key. */
    private final Map<String, Place> places = new HashMap<>();

    /** An empty vector, filled by the run. */
    public Observations() {
    }

    /**
     * Records an observation (replacing an earlier one under the same key).
     *
     * @param process the observing process's position in the scenario
     * @param step the step's index in its process
     * @param index the index of an indexed name, else 0
     * @param o the observation
     */
    void put(int process, int step, long index, Observation o) {
        Place old = places.get(o.key());
        if (old != null) {
            ordered.remove(old);
        }
        Place at = new Place(process, step, index, o.key());
        places.put(o.key(), at);
        ordered.put(at, o);
    }

    /** Returns the observation under a key, or null if none was made. */
    public Observation get(String key) {
        Place at = places.get(key);
        return at == null ? null : ordered.get(at);
    }

    /** Returns the observations in step order. */
    public List<Observation> list() {
        return new ArrayList<>(ordered.values());
    }

    /** Returns the values by name, in step order. */
    public Map<String, JsonNode> values() {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        ordered.values().forEach(o -> out.put(o.key(), o.value()));
        return out;
    }

    /** Returns true if nothing was observed. */
    public boolean isEmpty() {
        return ordered.isEmpty();
    }

    /** Returns the vector as a JSON object, names in step order. */
    public ObjectNode toJson() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        ordered.values().forEach(o -> n.set(o.key(), o.value()));
        return n;
    }

    @Override
    public String toString() {
        return toJson().toString();
    }

    /** Bytes as the scenario writes data: a fill when they are all equal, else hexadecimal. */
    static ObjectNode dataNode(byte[] b) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        boolean uniform = b.length > 0;
        for (int i = 1; i < b.length && uniform; i++) {
            uniform = b[i] == b[0];
        }
        if (uniform) {
            n.put("fill", b[0] & 0xff).put("length", b.length);
        } else {
            n.put("hex", Bytes.hex(b, b.length));
        }
        return n;
    }
}

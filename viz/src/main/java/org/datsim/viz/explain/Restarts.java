package org.datsim.viz.explain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Tells why a request started again: a go-back-N retransmission (a {@code retransmit} line of its endpoint, which
 * names the first operation sent again; the later unfinished ones are resent with it and have no line of their own)
 * or the retry after an RNR NAK (which also resends every later unfinished operation of the endpoint). The cause of
 * a restart is the last of those on the operation's endpoint between its previous start and this one.
 */
final class Restarts {

    /**
     * The cause of a restart.
     *
     * @param tPs when the retransmission began, or when the RNR NAK was sent
     * @param first the operation it began with (the refused one, for an RNR NAK)
     * @param rnr true for the retry after an RNR NAK, false for a retransmission
     */
    record Cause(long tPs, long first, boolean rnr) {
    }

    private final TraceIndex index;
    /** Per endpoint and retransmission time: the later operations that started again with it, in posting order. */
    private final Map<String, Map<Long, List<Long>>> resent = new HashMap<>();

    Restarts(TraceIndex index) {
        this.index = index;
        if (!index.anyRetransmit) {
            return;
        }
        for (OpRecord o : index.ops.values()) {
            for (int i = 1; i < o.starts.size(); i++) {
                Cause c = cause(o, i);
                if (c != null && !c.rnr() && c.first() != o.id) {
                    resent.computeIfAbsent(o.ep, k -> new HashMap<>())
                            .computeIfAbsent(c.tPs(), k -> new ArrayList<>(4)).add(o.id);
                }
            }
        }
    }

    /**
     * Returns why an operation started for the {@code i}-th time (from 1 for the first restart), or null when the
     * trace shows no retransmission or RNR NAK of its endpoint since its previous start.
     */
    Cause cause(OpRecord o, int i) {
        long prev = o.starts.get(i - 1);
        long s = o.starts.get(i);
        Map.Entry<Long, Long> re = floor(index.retransmitsByEp.get(o.ep), s, prev);
        Map.Entry<Long, Long> rnr = floor(index.rnrByEp.get(o.ep), s, prev);
        if (re != null && (rnr == null || re.getKey() >= rnr.getKey())) {
            return new Cause(re.getKey(), re.getValue(), false);
        }
        return rnr == null ? null : new Cause(rnr.getKey(), rnr.getValue(), true);
    }

    private static Map.Entry<Long, Long> floor(TreeMap<Long, Long> times, long at, long notBefore) {
        Map.Entry<Long, Long> e = times == null ? null : times.floorEntry(at);
        return e != null && e.getKey() >= notBefore ? e : null;
    }

    /** Returns the operations that started again with the retransmission of an endpoint at a time (after its first). */
    List<Long> resentWith(String ep, long tPs) {
        return resent.getOrDefault(ep, Map.of()).getOrDefault(tPs, List.of());
    }
}

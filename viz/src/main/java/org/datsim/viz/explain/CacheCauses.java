package org.datsim.viz.explain;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes the stalls an operation took from the HCAs' on-chip caches: the QP-context and translation-entry (MTT)
 * misses charged to it ({@code cache_miss} lines), per host in the order they first missed, and their penalties in
 * all.
 */
final class CacheCauses {

    /** Adds one line, at its first miss, for an operation that missed; nothing for one that did not. */
    void write(OpRecord o, List<Explanation.Line> lines) {
        if (o.cacheMisses == null || o.cacheMisses.isEmpty()) {
            return;
        }
        List<String> hosts = new ArrayList<>(2); // in the order they first missed; an operation touches two hosts
        long total = 0;
        boolean anyQpc = false;
        boolean anyMtt = false;
        for (OpRecord.CacheMiss m : o.cacheMisses) {
            if (!hosts.contains(m.host())) {
                hosts.add(m.host());
            }
            total += m.penaltyPs();
            anyQpc |= !m.mtt();
            anyMtt |= m.mtt();
        }
        StringBuilder sb = new StringBuilder("missed the HCAs' on-chip caches ").append(times(o.cacheMisses.size()))
                .append(", ").append(Times.human(total)).append(" of stalls in all:");
        for (int h = 0; h < hosts.size(); h++) {
            String host = hosts.get(h);
            int qpc = 0;
            int mtt = 0;
            long stall = 0;
            for (OpRecord.CacheMiss m : o.cacheMisses) {
                if (m.host().equals(host)) {
                    qpc += m.mtt() ? 0 : 1;
                    mtt += m.mtt() ? 1 : 0;
                    stall += m.penaltyPs();
                }
            }
            sb.append(h > 0 ? "; on " : " on ").append(host).append(' ');
            if (qpc > 0) {
                sb.append(qpc).append(qpc == 1 ? " QP-context miss" : " QP-context misses");
            }
            if (qpc > 0 && mtt > 0) {
                sb.append(" and ");
            }
            if (mtt > 0) {
                sb.append(mtt).append(mtt == 1 ? " translation (MTT) miss" : " translation (MTT) misses");
            }
            sb.append(" (").append(Times.human(stall)).append(')');
        }
        sb.append("; each miss fetches the entry from host memory over PCIe");
        if (anyQpc && anyMtt) {
            sb.append(" (hca.qpc_miss_penalty, hca.mtt_miss_penalty per page), and the caches hold hca.qpc_entries QP"
                    + " contexts and hca.mtt_entries pages");
        } else if (anyQpc) {
            sb.append(" (hca.qpc_miss_penalty), and the cache holds hca.qpc_entries QP contexts");
        } else {
            sb.append(" (hca.mtt_miss_penalty per page), and the cache holds hca.mtt_entries pages");
        }
        lines.add(new Explanation.Line(o.cacheMisses.get(0).tPs(), sb.toString(), true));
    }

    private static String times(int n) {
        return n == 1 ? "once" : n == 2 ? "twice" : n + " times";
    }
}

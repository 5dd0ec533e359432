package org.datsim.fabric.sw;

import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.link;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.datsim.core.stats.StatsRegistry;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.Ep;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.link.PortCounters;
import org.junit.jupiter.api.Test;

/**
 * Two links between the same two switches: each direction's ports are named {@code S1->S2} and {@code S1->S2#2}, and
 * a switch's {@code drop} line names the port a packet arrived over exactly as summary.json's ports do.
 */
class ParallelLinksTest {

    private static final long T0 = 100_000_000L; // after the connections are set up

    @Test
    void aDropOnTheSecondOfTwoParallelLinksNamesItsPortAsTheCountersDo() {
        // A - S1 = S2 - B: the second S1-S2 link is declared after the first
        TestFabric tf = new TestFabric(List.of("A", "B"), List.of("S1", "S2"),
                List.of(link("A", "S1"), link("S1", "S2"), link("S1", "S2"), link("S2", "B")));
        List<String> names = new ArrayList<>();
        for (Port p : tf.fabric.ports()) {
            names.add(p.name());
        }
        assertEquals(List.of("A->S1", "S1->A", "S1->S2", "S2->S1", "S1->S2#2", "S2->S1#2", "S2->B", "B->S2"), names);

        // eight connections, spread over the two S1-S2 links by their flow hash; S2 drops the first Write packet of
        // each flow as it arrives from S1
        int a = tf.host("A").hca().hostId();
        Set<Integer> flowsHit = new HashSet<>();
        tf.fabric.switches().get(1).dropFilter().set(q -> q.kind == Packet.RDMA_WRITE && q.srcHost == a
                && flowsHit.add(q.flow));
        TestFabric.Node na = tf.open("A");
        TestFabric.Node nb = tf.open("B");
        List<Ep> eps = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Ep ea = tf.ep(na);
            tf.connect(na, ea, nb, tf.ep(nb));
            eps.add(ea);
        }
        Lmr src = tf.lmr(na, 8 * 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(nb, 8 * 4096, Dat.MEM_PRIV_ALL);
        tf.at(T0, () -> {
            for (int i = 0; i < eps.size(); i++) {
                tf.write(eps.get(i), iov(src, i * 4096L, 4096), i, remote(dst, i * 4096L, 4096), 0);
            }
        });
        tf.run();
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_SUCCESS, Dat.DTO_SUCCESS, Dat.DTO_SUCCESS, Dat.DTO_SUCCESS,
                Dat.DTO_SUCCESS, Dat.DTO_SUCCESS, Dat.DTO_SUCCESS), TestFabric.statuses(tf.drain(na.reqEvd)),
                "every Write recovered");

        Map<String, Long> tracedDrops = new TreeMap<>();
        for (TraceEvent e : tf.events(Switch.DROP, null)) {
            assertEquals("S2", e.attrs().get("switch"));
            tracedDrops.merge((String) e.attrs().get("port"), 1L, Long::sum);
        }
        StatsRegistry reg = new StatsRegistry();
        tf.fabric.registerStats(reg);
        Map<String, Long> countedDrops = new TreeMap<>();
        reg.stats().forEach((name, stat) -> {
            long d = ((PortCounters) stat).drops();
            if (d > 0) {
                countedDrops.put(name.substring("port.".length()), d);
            }
        });
        assertEquals(8, flowsHit.size());
        assertEquals(countedDrops, tracedDrops, "the drop lines name the ports the counters count the drops on");
        assertTrue(tracedDrops.containsKey("S1->S2#2"), "some flow took the second link: " + tracedDrops);
        assertTrue(tracedDrops.containsKey("S1->S2"), "and some the first: " + tracedDrops);
        assertEquals(8L, tracedDrops.values().stream().mapToLong(Long::longValue).sum());
    }
}

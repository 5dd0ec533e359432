package org.datsim.viz.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeSet;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSchema;
import org.junit.jupiter.api.Test;

/**
 * explain has decided for every kind the schema declares how it tells it (a new kind fails here until it does), and
 * tells port samples on their own and the kinds it only counts.
 */
class KindsToldTest {

    @Test
    void everyDeclaredKindHasItsWayOfBeingToldAndNoOtherKindIsListed() {
        assertEquals(new TreeSet<>(TraceSchema.kinds()), new TreeSet<>(KindsTold.HOW.keySet()));
    }

    @Test
    void portSamplesAloneAreToldAsSamplesAndQueuesAreNotCalledUntraced() {
        Explainer x = new Explainer();
        for (int i = 0; i < 3; i++) {
            x.accept(TraceEvent.of(i * 1_000, TraceKind.PORT_SAMPLE, "S").attr(TraceKey.SWITCH, "S")
                    .attr(TraceKey.PORT, i == 0 ? "S->h1" : "S->h2").attr(TraceKey.QUEUE_BYTES, 100L * i));
        }
        Explanation e = x.explain();
        String head = String.join("\n", e.header());
        assertTrue(head.contains("port queues are traced (port_sample: 3 samples): 1 port queued bytes"), head);
        assertFalse(String.join(" ", e.limits()).contains("switch queue"), e.limits().toString());
    }

    @Test
    void theKindsOnlyCountedAreNamedInOneHeaderLine() {
        Explainer x = new Explainer();
        x.accept(TraceEvent.of(1, TraceKind.SRQ_TAKE, "B").ep("B/ep").attr(TraceKey.SRQ, "B/srq").op(1)
                .attr(TraceKey.AVAILABLE, 2L));
        x.accept(TraceEvent.of(2, TraceKind.SRQ_TAKE, "B").ep("B/ep").attr(TraceKey.SRQ, "B/srq").op(2)
                .attr(TraceKey.AVAILABLE, 1L));
        x.accept(TraceEvent.of(3, TraceKind.CHOICE, "A").attr(TraceKey.POINT, "evd.reap_order"));
        String head = String.join("\n", x.explain().header());
        assertTrue(head.contains("Also in the trace, not told below: 2 srq_take lines, 1 choice line."), head);
        assertEquals(null, KindsTold.alsoInTheTrace(Map.of(TraceKind.CNO_NOTIFY, 0L)));
    }
}

package org.datsim.fabric.hca;

import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.EpAttributes;
import org.datsim.fabric.dat.Lmr;
import org.junit.jupiter.api.Test;

/**
 * RDMA Read credits (rule 49) and the strict read-ordering profile (rule 19): reads beyond max_rdma_read_out wait
 * in the queue and all succeed; a responder that receives more reads than its max_rdma_read_in breaks the
 * connection; with transport.read_ordering strict an unfenced Send waits for an earlier Read.
 */
class ReadCreditsAndOrderingTest {

    private static final long T0 = 100_000_000L;

    private static EpAttributes reads(int in, int out) {
        return new EpAttributes(1L << 30, 1L << 30, 64, 64, 4, 4, 0, 0, in, out);
    }

    @Test
    void rule49_readsBeyondMaxRdmaReadOutWaitForACreditAndAllSucceed() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Pair p = tf.connectedPair("A", "B", reads(4, 2), reads(4, 4));
        Lmr sink = tf.lmr(p.a, 4 * 4096, Dat.MEM_PRIV_ALL);
        Lmr source = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        long[] ops = new long[4];
        tf.at(T0, () -> {
            for (int i = 0; i < 4; i++) {
                ops[i] = tf.read(p.epA, iov(sink, i * 4096L, 4096), i, remote(source, 0, 4096), 0);
            }
        });
        tf.run();
        List<DatEvent> done = tf.drain(p.a.reqEvd);
        assertEquals(List.of(0, 0, 0, 0), TestFabric.statuses(done));
        TraceEvent wait = tf.event("credit_wait", "A", ops[2]);
        assertArrayEquals(new long[] {ops[0], ops[1]}, (long[]) wait.attrs().get("waiting_for"));
        long firstPlaced = tf.event(TraceEvent.PLACE, "A", ops[0]).tPs();
        assertTrue(tf.event(TraceEvent.START, "A", ops[2]).tPs() >= firstPlaced,
                "the third Read starts only once the first has completed");
    }

    @Test
    void rule49_eachSideIsClampedToTheIaLimit() {
        TestFabric tf = TestFabric.backToBack("ia.max_rdma_read_per_ep_out", "3");
        TestFabric.Pair p = tf.connectedPair("A", "B", reads(4, 100), null);
        assertEquals(3, p.epA.attributes().maxRdmaReadOut());
    }

    @Test
    void rule49_moreReadsThanThePeersMaxRdmaReadInBreakTheConnection() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Pair p = tf.connectedPair("A", "B", reads(4, 8), reads(2, 4));
        long size = 65536; // long enough that the first two are still being answered when the third arrives
        Lmr sink = tf.lmr(p.a, 4 * size, Dat.MEM_PRIV_ALL);
        Lmr source = tf.lmr(p.b, size, Dat.MEM_PRIV_ALL);
        tf.at(T0, () -> {
            for (int i = 0; i < 4; i++) {
                tf.read(p.epA, iov(sink, i * size, size), i, remote(source, 0, size), 0);
            }
        });
        tf.run();
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_SUCCESS, Dat.DTO_ERR_REMOTE_RESPONDER, Dat.DTO_ERR_FLUSHED),
                TestFabric.statuses(tf.drain(p.a.reqEvd)));
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epB.state());
    }

    @Test
    void rule19_strictReadOrderingMakesAnUnfencedSendWaitForTheRead() {
        TestFabric tf = TestFabric.backToBack("transport.read_ordering", "strict");
        TestFabric.Pair p = tf.connectedPair("A", "B", null, null);
        Lmr local = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr source = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        Lmr inbox = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        tf.recv(p.epB, iov(inbox, 0, 64), 1);
        long[] ops = new long[2];
        tf.at(T0, () -> {
            ops[0] = tf.read(p.epA, iov(local, 0, 4096), 1, remote(source, 0, 4096), 0);
            ops[1] = tf.send(p.epA, iov(local, 0, 64), 2, 0);
        });
        tf.run();
        TraceEvent wait = tf.event(TraceEvent.FENCE_WAIT, "A", ops[1]);
        assertEquals("strict read ordering", wait.attrs().get("reason"));
        assertTrue(tf.event(TraceEvent.START, "A", ops[1]).tPs() >= tf.event(TraceEvent.PLACE, "A", ops[0]).tPs());
    }
}

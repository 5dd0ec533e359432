package org.datsim.fabric.hca;

import static org.datsim.fabric.TestFabric.cpuRead;
import static org.datsim.fabric.TestFabric.cpuWrite;
import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.randomBytes;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.Lmr;
import org.junit.jupiter.api.Test;

/**
 * RDMA Read ordering and the barrier fence (rules 17, 19, 21): without a fence, a Send from a buffer that an
 * earlier RDMA Read is still filling sends stale bytes; with DAT_COMPLETION_BARRIER_FENCE_FLAG the Send does not
 * start until the Read has completed, so it carries the bytes read; completions stay in posting order either way.
 */
class FenceTest {

    private static final long T0 = 100_000_000L;
    private static final int LEN = 64 * 1024;

    /** Reads LEN remote bytes into L, then sends L with the given flags; returns {remote bytes, received bytes}. */
    private static byte[][] readThenSend(TestFabric.Pair p, int sendFlags, long[] ops) {
        TestFabric tf = p.tf;
        Lmr local = tf.lmr(p.a, LEN, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, LEN, Dat.MEM_PRIV_ALL);
        Lmr sink = tf.lmr(p.b, LEN, Dat.MEM_PRIV_ALL);
        byte[] data = randomBytes(LEN, 17);
        cpuWrite(p.b, far, 0, data);
        tf.recv(p.epB, iov(sink, 0, LEN), 100);
        tf.at(T0, () -> {
            ops[0] = tf.read(p.epA, iov(local, 0, LEN), 1, remote(far, 0, LEN), 0);
            ops[1] = tf.send(p.epA, iov(local, 0, LEN), 2, sendFlags);
        });
        tf.run();
        assertEquals(List.of(1L, 2L), TestFabric.cookies(tf.drain(p.a.reqEvd)), "rule 21: posting order");
        assertEquals(Dat.DTO_SUCCESS, tf.only(p.b.recvEvd).status);
        return new byte[][] {data, cpuRead(p.b, sink, 0, LEN)};
    }

    @Test
    void rule19_unfencedSendAfterReadSendsStaleBytes() {
        TestFabric.Pair p = TestFabric.pair();
        long[] ops = new long[2];
        byte[][] r = readThenSend(p, 0, ops);
        long sendStart = p.tf.event(TraceEvent.START, "A", ops[1]).tPs();
        long readPlaced = p.tf.event(TraceEvent.PLACE, "A", ops[0]).tPs();
        assertTrue(sendStart < readPlaced, "the Send started before the Read's data was in place");
        assertArrayEquals(new byte[LEN], r[1], "the Send carried the buffer as it was before the Read");
    }

    @Test
    void rule17_fencedSendWaitsForTheEarlierReadAndCarriesTheReadBytes() {
        TestFabric.Pair p = TestFabric.pair();
        long[] ops = new long[2];
        byte[][] r = readThenSend(p, Dat.COMPLETION_BARRIER_FENCE_FLAG, ops);
        long sendStart = p.tf.event(TraceEvent.START, "A", ops[1]).tPs();
        long readPlaced = p.tf.event(TraceEvent.PLACE, "A", ops[0]).tPs();
        assertTrue(sendStart >= readPlaced, "the fenced Send started only after the Read completed");
        assertArrayEquals(r[0], r[1], "the fenced Send carried the bytes the Read brought in");
        TraceEvent wait = p.tf.event(TraceEvent.FENCE_WAIT, "A", ops[1]);
        assertArrayEquals(new long[] {ops[0]}, (long[]) wait.attrs().get("waiting_for"),
                "the fence_wait names the Read it waits for");
    }
}

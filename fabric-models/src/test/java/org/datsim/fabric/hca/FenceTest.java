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

    /**
     * Reads {@code len} remote bytes (0x22) into L (holding 0x11), then sends the first {@code sendLen} bytes of L
     * with the fence, either at once or after the Read's completion; returns the bytes B received.
     */
    private static byte[] inlineCase(TestFabric.Pair p, int len, int sendLen, boolean afterCompletion, long[] ops) {
        TestFabric tf = p.tf;
        Lmr local = tf.lmr(p.a, len, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, len, Dat.MEM_PRIV_ALL);
        Lmr sink = tf.lmr(p.b, len, Dat.MEM_PRIV_ALL);
        byte[] old = new byte[len];
        java.util.Arrays.fill(old, (byte) 0x11);
        byte[] fresh = new byte[len];
        java.util.Arrays.fill(fresh, (byte) 0x22);
        cpuWrite(p.a, local, 0, old);
        cpuWrite(p.b, far, 0, fresh);
        tf.recv(p.epB, iov(sink, 0, len), 100);
        tf.at(T0, () -> {
            ops[0] = tf.read(p.epA, iov(local, 0, len), 1, remote(far, 0, len), 0);
            if (!afterCompletion) {
                ops[1] = tf.send(p.epA, iov(local, 0, sendLen), 2, Dat.COMPLETION_BARRIER_FENCE_FLAG);
            }
        });
        tf.run();
        if (afterCompletion) {
            assertEquals(1L, tf.only(p.a.reqEvd).cookie);
            ops[1] = tf.send(p.epA, iov(local, 0, sendLen), 2, 0);
            tf.run();
        }
        assertEquals(Dat.DTO_SUCCESS, tf.only(p.b.recvEvd).status);
        return cpuRead(p.b, sink, 0, sendLen);
    }

    private static TraceEvent post(TestFabric tf, long op) {
        return tf.event(TraceEvent.POST, "A", op);
    }

    @Test
    void rule17_aFencedSendPostedInlineCarriesTheBytesCopiedAtThePostNotTheReadsData() {
        // dapl (openib_common/dapl_ib_dto.h) sets IBV_SEND_INLINE on every Send or RDMA Write of at most its inline
        // size, fence or not: the CPU copies the payload into the WQE at ibv_post_send, before the fence releases.
        TestFabric.Pair p = TestFabric.pair("hca.max_inline", "64B");
        long[] ops = new long[2];
        byte[] got = inlineCase(p, 64, 64, false, ops);
        byte[] stale = new byte[64];
        java.util.Arrays.fill(stale, (byte) 0x11);
        assertArrayEquals(stale, got, "the inline copy was made before the Read landed");
        assertEquals(Boolean.TRUE, post(p.tf, ops[1]).attrValue("inline"), "the post line says inline");
        assertEquals(null, post(p.tf, ops[0]).attrValue("inline"), "a Read is never inline");
        long sendStart = p.tf.event(TraceEvent.START, "A", ops[1]).tPs();
        long readPlaced = p.tf.event(TraceEvent.PLACE, "A", ops[0]).tPs();
        assertTrue(sendStart >= readPlaced, "the fence still held the start");
        p.tf.event(TraceEvent.FENCE_WAIT, "A", ops[1]);
    }

    @Test
    void rule17_aFencedSendLongerThanTheInlineSizeCarriesTheReadsData() {
        TestFabric.Pair p = TestFabric.pair("hca.max_inline", "64B");
        long[] ops = new long[2];
        byte[] got = inlineCase(p, 65, 65, false, ops);
        byte[] fresh = new byte[65];
        java.util.Arrays.fill(fresh, (byte) 0x22);
        assertArrayEquals(fresh, got);
        assertEquals(null, post(p.tf, ops[1]).attrValue("inline"), "65 B > hca.max_inline: not inline");
    }

    @Test
    void rule17_withInlineOffTheFencedSendCarriesTheReadsData() {
        TestFabric.Pair p = TestFabric.pair("hca.max_inline", "0B");
        long[] ops = new long[2];
        byte[] got = inlineCase(p, 64, 64, false, ops);
        byte[] fresh = new byte[64];
        java.util.Arrays.fill(fresh, (byte) 0x22);
        assertArrayEquals(fresh, got);
        assertEquals(null, post(p.tf, ops[1]).attrValue("inline"));
    }

    @Test
    void anInlineSendPostedAfterTheReadsCompletionCarriesTheReadsData() {
        TestFabric.Pair p = TestFabric.pair("hca.max_inline", "64B");
        long[] ops = new long[2];
        byte[] got = inlineCase(p, 64, 64, true, ops);
        byte[] fresh = new byte[64];
        java.util.Arrays.fill(fresh, (byte) 0x22);
        assertArrayEquals(fresh, got, "copied at a post made after the Read's data was in place");
        assertEquals(Boolean.TRUE, post(p.tf, ops[1]).attrValue("inline"));
    }

    @Test
    void inlineIsDecidedAsDaplDoesBySizeForSendsAndWritesOnly() {
        TestFabric.Pair p = TestFabric.pair("hca.max_inline", "64B");
        TestFabric tf = p.tf;
        Lmr local = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        for (int i = 0; i < 4; i++) {
            tf.recv(p.epB, iov(far, 0, 4096), 100 + i);
        }
        long[] op = new long[6];
        tf.at(T0, () -> {
            op[0] = tf.send(p.epA, iov(local, 0, 64), 1, 0);
            op[1] = tf.send(p.epA, iov(local, 0, 65), 2, 0);
            op[2] = tf.send(p.epA, iov(local, 0, 0), 3, 0);
            op[3] = tf.write(p.epA, iov(local, 0, 64), 4, remote(far, 0, 64), 0);
            op[4] = tf.write(p.epA, iov(local, 0, 65), 5, remote(far, 0, 65), 0);
            op[5] = tf.read(p.epA, iov(local, 0, 8), 6, remote(far, 0, 8), 0);
        });
        tf.run();
        Object[] expected = {Boolean.TRUE, null, Boolean.TRUE, Boolean.TRUE, null, null};
        for (int i = 0; i < 6; i++) {
            assertEquals(expected[i], post(tf, op[i]).attrValue("inline"), "op " + i);
        }
    }
}

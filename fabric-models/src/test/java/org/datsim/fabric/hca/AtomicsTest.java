package org.datsim.fabric.hca;

import static org.datsim.fabric.TestFabric.cpuRead;
import static org.datsim.fabric.TestFabric.cpuWrite;
import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.EpAttributes;
import org.datsim.fabric.dat.LmrTriplet;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.dat.Out;
import org.datsim.fabric.dat.Rmr;
import org.datsim.fabric.dat.RmrTriplet;
import org.junit.jupiter.api.Test;

/**
 * The IB atomics dat_ib_post_fetch_and_add and dat_ib_post_cmp_and_swap (rule 18): the responder reads, modifies and
 * writes the 8-byte value and returns the original one, which lands in the requester's local segment; they complete
 * as DAT_IB_DTO_EVENT; a barrier fence waits for them as for RDMA Reads, and without one a later RDMA Write may
 * reach the target before the atomic executes; they need DAT_IB_MEM_PRIV_REMOTE_ATOMIC and an aligned address, and
 * they use read credits.
 */
class AtomicsTest {

    private static final long T0 = 100_000_000L;
    private static final int ATOMIC_PRIV = Dat.MEM_PRIV_ALL | Dat.IB_MEM_PRIV_REMOTE_ATOMIC;

    private static byte[] le(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    private static long value(TestFabric.Node n, Lmr l, long off) {
        return ByteBuffer.wrap(cpuRead(n, l, off, 8)).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /** The statuses of DTO completions: DAT_DTO_COMPLETION_EVENT or, for the atomics, DAT_IB_DTO_EVENT. */
    private static List<Integer> statuses(List<DatEvent> events) {
        List<Integer> out = new java.util.ArrayList<>();
        for (DatEvent e : events) {
            assertTrue(e.number == Dat.DTO_COMPLETION_EVENT || e.number == Dat.IB_DTO_EVENT, e.numberName());
            out.add(e.status);
        }
        return out;
    }

    private static int fetchAdd(TestFabric tf, TestFabric.Pair p, long add, LmrTriplet[] local, long cookie,
            RmrTriplet target, int flags, long[] op, int i) {
        Out<Long> o = new Out<>();
        int ret = tf.dat.postFetchAndAdd(p.epA, add, local, cookie, target, flags, o);
        op[i] = o.value != null ? o.value : -1;
        return ret;
    }

    private static long cmpSwap(TestFabric tf, TestFabric.Pair p, long cmp, long swap, LmrTriplet[] local,
            long cookie, RmrTriplet target) {
        Out<Long> o = new Out<>();
        TestFabric.ok(tf.dat.postCmpAndSwap(p.epA, cmp, swap, local, cookie, target, 0, o));
        return o.get();
    }

    @Test
    void rule18_fetchAndAddReturnsTheOldValueAndAddsToTheRemoteValue() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr local = tf.lmr(p.a, 64, Dat.MEM_PRIV_ALL);
        Lmr target = tf.lmr(p.b, 64, ATOMIC_PRIV);
        cpuWrite(p.b, target, 8, le(41));
        long[] op = new long[2];
        tf.at(T0, () -> {
            TestFabric.ok(fetchAdd(tf, p, 1, iov(local, 0, 8), 7, remote(target, 8, 8), 0, op, 0));
            TestFabric.ok(fetchAdd(tf, p, -50, iov(local, 8, 8), 8, remote(target, 8, 8), 0, op, 1));
        });
        tf.run();
        List<DatEvent> done = tf.drain(p.a.reqEvd);
        assertEquals(List.of(7L, 8L), TestFabric.cookies(done));
        for (DatEvent e : done) {
            assertEquals(Dat.IB_DTO_EVENT, e.number, "dapl reports an atomic as DAT_IB_DTO_EVENT");
            assertEquals(Dat.DTO_SUCCESS, e.status);
            assertEquals(Dat.IB_DTO_FETCH_ADD, e.operation);
            assertEquals(Dat.IB_EXT_FETCH_AND_ADD, e.extensionType());
            assertEquals(8, e.transferredLength);
        }
        assertEquals(41, value(p.a, local, 0), "the first returns the original value");
        assertEquals(42, value(p.a, local, 8), "the second, executed after it, returns the first's result");
        assertEquals(-8, value(p.b, target, 8), "both were applied, in the order they arrived");
        assertEquals(0, value(p.b, target, 0), "the neighbouring bytes are untouched");
        assertEquals("fetch_add", tf.event(TraceEvent.START, "A", op[0]).attrs().get("opcode"));
        tf.event(TraceEvent.PLACE, "A", op[1]);
        assertEquals(0, tf.fabric.packetPool().inUse(), "every pooled packet of the atomics went back to the pool");
    }

    @Test
    void rule18_compareAndSwapSwapsOnlyWhenTheValuesAreEqual() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr local = tf.lmr(p.a, 16, Dat.MEM_PRIV_ALL);
        Lmr target = tf.lmr(p.b, 8, ATOMIC_PRIV);
        cpuWrite(p.b, target, 0, le(7));
        tf.at(T0, () -> {
            cmpSwap(tf, p, 7, 9, iov(local, 0, 8), 1, remote(target, 0, 8));
            cmpSwap(tf, p, 7, 11, iov(local, 8, 8), 2, remote(target, 0, 8));
        });
        tf.run();
        List<DatEvent> done = tf.drain(p.a.reqEvd);
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_SUCCESS), statuses(done));
        assertEquals(Dat.IB_DTO_CMP_SWAP, done.get(0).operation);
        assertEquals(Dat.IB_EXT_CMP_AND_SWAP, done.get(1).extensionType());
        assertEquals(7, value(p.a, local, 0), "the first compared equal and swapped; it returns the original 7");
        assertEquals(9, value(p.a, local, 8), "the second found 9, not 7, and returns it");
        assertEquals(9, value(p.b, target, 0), "only the first swap took place");
    }

    /**
     * X = 5; fetch_and_add(X, +1) then an RDMA Write of 100 to X with {@code writeFlags}. The Write is inline
     * (hca.max_inline), so it leaves right behind the atomic and lands at the responder before the atomic's DMA read.
     */
    private static long[] atomicThenWrite(TestFabric.Pair p, int writeFlags) {
        TestFabric tf = p.tf;
        Lmr local = tf.lmr(p.a, 16, Dat.MEM_PRIV_ALL);
        Lmr target = tf.lmr(p.b, 8, ATOMIC_PRIV);
        cpuWrite(p.b, target, 0, le(5));
        cpuWrite(p.a, local, 8, le(100));
        long[] op = new long[2];
        tf.at(T0, () -> {
            TestFabric.ok(fetchAdd(tf, p, 1, iov(local, 0, 8), 1, remote(target, 0, 8), 0, op, 0));
            op[1] = tf.write(p.epA, iov(local, 8, 8), 2, remote(target, 0, 8), writeFlags);
        });
        tf.run();
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_SUCCESS), statuses(tf.drain(p.a.reqEvd)));
        return new long[] {op[0], op[1], value(p.a, local, 0), value(p.b, target, 0)};
    }

    @Test
    void rule18_aFencedWriteWaitsForTheEarlierAtomic() {
        TestFabric.Pair p = TestFabric.pair("hca.max_inline", "64B");
        long[] r = atomicThenWrite(p, Dat.COMPLETION_BARRIER_FENCE_FLAG);
        long writeStart = p.tf.event(TraceEvent.START, "A", r[1]).tPs();
        long atomicPlaced = p.tf.event(TraceEvent.PLACE, "A", r[0]).tPs();
        assertTrue(writeStart >= atomicPlaced, "the fenced Write started only after the atomic completed");
        TraceEvent wait = p.tf.event(TraceEvent.FENCE_WAIT, "A", r[1]);
        assertArrayEquals(new long[] {r[0]}, (long[]) wait.attrs().get("waiting_for"));
        assertEquals("barrier fence", wait.attrs().get("reason"));
        assertEquals(5, r[2], "the atomic saw the value before the Write");
        assertEquals(100, r[3], "the Write came last");
    }

    @Test
    void rule18_withRelaxedReadOrderingAnUnfencedWriteOvertakesTheEarlierAtomic() {
        TestFabric.Pair p = TestFabric.pair("transport.read_ordering", "relaxed", "hca.max_inline", "64B");
        long[] r = atomicThenWrite(p, 0);
        assertTrue(p.tf.events(TraceEvent.FENCE_WAIT, "A").isEmpty(), "nothing held the Write");
        assertTrue(p.tf.event(TraceEvent.START, "A", r[1]).tPs() < p.tf.event(TraceEvent.PLACE, "A", r[0]).tPs(),
                "the Write started before the atomic completed");
        assertEquals(100, r[2], "the Write reached X before the atomic executed there");
        assertEquals(101, r[3], "and the atomic added to the written value");
    }

    @Test
    void rule18_withStrictReadOrderingAnUnfencedWriteWaitsForTheAtomic() {
        TestFabric.Pair p = TestFabric.pair("transport.read_ordering", "strict", "hca.max_inline", "64B");
        long[] r = atomicThenWrite(p, 0);
        assertEquals("strict read ordering", p.tf.event(TraceEvent.FENCE_WAIT, "A", r[1]).attrs().get("reason"));
        assertEquals(5, r[2]);
        assertEquals(100, r[3]);
    }

    @Test
    void rule18_withoutTheRemoteAtomicPrivilegeTheAtomicFailsWithRemoteAccess() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr local = tf.lmr(p.a, 8, Dat.MEM_PRIV_ALL);
        Lmr target = tf.lmr(p.b, 8, Dat.MEM_PRIV_ALL); // remote read and write, but not remote atomic
        cpuWrite(p.b, target, 0, le(3));
        long[] op = new long[1];
        tf.at(T0, () -> TestFabric.ok(fetchAdd(tf, p, 1, iov(local, 0, 8), 1, remote(target, 0, 8), 0, op, 0)));
        tf.run();
        DatEvent e = tf.only(p.a.reqEvd);
        assertEquals(Dat.IB_DTO_EVENT, e.number);
        assertEquals(Dat.DTO_ERR_REMOTE_ACCESS, e.status);
        assertEquals(-1, e.extensionType(), "a failed atomic carries no extension type");
        assertEquals(3, value(p.b, target, 0), "the remote value is untouched");
        assertEquals(0, tf.fabric.packetPool().inUse(), "the NAK path gives its packets back too");
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, tf.only(p.a.connEvd).number);
    }

    @Test
    void rule18_aMisalignedAtomicIsAnInvalidRequestReportedAsRemoteResponder() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr local = tf.lmr(p.a, 8, Dat.MEM_PRIV_ALL);
        Lmr target = tf.lmr(p.b, 16, ATOMIC_PRIV);
        long[] op = new long[1];
        tf.at(T0, () -> TestFabric.ok(fetchAdd(tf, p, 1, iov(local, 0, 8), 1, remote(target, 4, 8), 0, op, 0)));
        tf.run();
        assertEquals(Dat.DTO_ERR_REMOTE_RESPONDER, tf.only(p.a.reqEvd).status);
        assertArrayEquals(new byte[16], cpuRead(p.b, target, 0, 16));
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
    }

    @Test
    void rule18_anAtomicMovesEightBytesIntoAnEightByteLocalSegmentWithLocalWriteFromARemoteOneOfAtLeastEight() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr local = tf.lmr(p.a, 16, Dat.MEM_PRIV_ALL);
        Lmr readOnly = tf.lmr(p.a, 8, Dat.MEM_PRIV_LOCAL_READ);
        Lmr target = tf.lmr(p.b, 16, ATOMIC_PRIV);
        long[] op = new long[1];
        TestFabric.assertError(DatReturn.LENGTH_ERROR, 0,
                fetchAdd(tf, p, 1, iov(local, 0, 16), 1, remote(target, 0, 16), 0, op, 0));
        TestFabric.assertError(DatReturn.LENGTH_ERROR, 0,
                fetchAdd(tf, p, 1, iov(local, 0, 8), 1, remote(target, 0, 4), 0, op, 0));
        TestFabric.assertError(DatReturn.PRIVILEGES_VIOLATION, DatReturn.SUB_PRIVILEGES_WRITE,
                fetchAdd(tf, p, 1, iov(readOnly, 0, 8), 1, remote(target, 0, 8), 0, op, 0));
        TestFabric.assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG5,
                fetchAdd(tf, p, 1, iov(local, 0, 8), 1, remote(target, 0, 8),
                        Dat.COMPLETION_SOLICITED_WAIT_FLAG, op, 0));
    }

    @Test
    void rule18_atomicsUseReadCreditsLikeReads() {
        TestFabric tf = TestFabric.backToBack();
        EpAttributes oneRead = new EpAttributes(1L << 30, 1L << 30, 64, 64, 4, 4, 0, 0, 4, 1);
        TestFabric.Pair p = tf.connectedPair("A", "B", oneRead, null);
        Lmr local = tf.lmr(p.a, 16, Dat.MEM_PRIV_ALL);
        Lmr target = tf.lmr(p.b, 8, ATOMIC_PRIV);
        long[] op = new long[2];
        tf.at(T0, () -> {
            TestFabric.ok(fetchAdd(tf, p, 1, iov(local, 0, 8), 1, remote(target, 0, 8), 0, op, 0));
            TestFabric.ok(fetchAdd(tf, p, 1, iov(local, 8, 8), 2, remote(target, 0, 8), 0, op, 1));
        });
        tf.run();
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_SUCCESS), statuses(tf.drain(p.a.reqEvd)));
        assertArrayEquals(new long[] {op[0]}, (long[]) tf.event("credit_wait", "A", op[1]).attrs().get("waiting_for"));
        assertTrue(tf.event(TraceEvent.START, "A", op[1]).tPs() >= tf.event(TraceEvent.PLACE, "A", op[0]).tPs());
        assertEquals(2, value(p.b, target, 0));
    }

    @Test
    void rule18_anAtomicPostedAfterAnRmrBindWaitsForItsImplicitFenceAndTheBindNeedsLocalWrite() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr local = tf.lmr(p.a, 8, Dat.MEM_PRIV_ALL);
        Lmr window = tf.lmr(p.a, 64, Dat.MEM_PRIV_ALL);
        Lmr noLocalWrite = tf.lmr(p.a, 8, Dat.MEM_PRIV_LOCAL_READ | Dat.MEM_PRIV_REMOTE_READ);
        Lmr target = tf.lmr(p.b, 8, ATOMIC_PRIV);
        cpuWrite(p.b, target, 0, le(40));
        Out<Rmr> win = new Out<>();
        TestFabric.ok(tf.dat.rmrCreate(p.a.pz, win));
        TestFabric.assertError(DatReturn.PRIVILEGES_VIOLATION, 0, tf.dat.rmrBind(win.value, noLocalWrite,
                TestFabric.seg(noLocalWrite, 0, 8), Dat.IB_MEM_PRIV_REMOTE_ATOMIC, p.epA, 1, 0, new Out<>(),
                new Out<>()));
        long[] op = new long[2];
        tf.at(T0, () -> {
            Out<Long> bindOp = new Out<>();
            TestFabric.ok(tf.dat.rmrBind(win.value, window, TestFabric.seg(window, 0, 64),
                    Dat.IB_MEM_PRIV_REMOTE_ATOMIC | Dat.MEM_PRIV_REMOTE_WRITE, p.epA, 1, 0, new Out<>(), bindOp));
            op[0] = bindOp.get();
            TestFabric.ok(fetchAdd(tf, p, 2, iov(local, 0, 8), 2, remote(target, 0, 8), 0, op, 1));
        });
        tf.run();
        TraceEvent wait = tf.event(TraceEvent.FENCE_WAIT, "A", op[1]);
        assertEquals("rmr_bind implicit fence", wait.attrs().get("reason"));
        assertArrayEquals(new long[] {op[0]}, (long[]) wait.attrs().get("waiting_for"));
        assertTrue(tf.event(TraceEvent.START, "A", op[1]).tPs() > tf.event(TraceEvent.START, "A", op[0]).tPs());
        assertEquals(40, value(p.a, local, 0));
        assertEquals(42, value(p.b, target, 0));
    }
}

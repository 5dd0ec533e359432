package org.datsim.fabric.dat;

import static org.datsim.fabric.TestFabric.cpuRead;
import static org.datsim.fabric.TestFabric.cpuWrite;
import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.remote;
import static org.datsim.fabric.TestFabric.seg;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.TestFabric;
import org.junit.jupiter.api.Test;

/**
 * Rules that the provider already followed but no test named: stream order (1), one consumer per event (3), the
 * fence's scope (20, 21), a context used before its bind executed (24), a bind that fails after returning (26), the
 * lmr_sync calls on coherent memory and their arguments (30, 34, 35), CPU writes to an RDMA Write target (33), and
 * transfered_length and cookies (41).
 */
class RuleCoverageTest {

    private static final long T0 = 100_000_000L;

    private static byte[] fill(int n, int v) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) v);
        return b;
    }

    @Test
    void rule1_eventsOfOneStreamComeOutInTheOrderTheyWereGenerated() {
        TestFabric.Pair p = TestFabric.pair();
        Lmr src = p.tf.lmr(p.a, 64 * 16, Dat.MEM_PRIV_ALL);
        Lmr dst = p.tf.lmr(p.b, 64 * 16, Dat.MEM_PRIV_ALL);
        p.tf.at(T0, () -> {
            for (int i = 0; i < 16; i++) {
                p.tf.write(p.epA, iov(src, i * 64L, 64), i, remote(dst, i * 64L, 64), 0);
            }
        });
        p.tf.run();
        List<DatEvent> events = p.tf.drain(p.a.reqEvd);
        List<Long> queued = new ArrayList<>();
        for (DatEvent e : events) {
            queued.add(e.queuedPs);
        }
        List<Long> sorted = new ArrayList<>(queued);
        sorted.sort(null);
        assertEquals(sorted, queued);
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L),
                TestFabric.cookies(events));
    }

    @Test
    void rule3_consumersTakingEventsInTurnEachGetEveryEventExactlyOnce() {
        TestFabric.Pair p = TestFabric.pair();
        Lmr src = p.tf.lmr(p.a, 64, Dat.MEM_PRIV_ALL);
        Lmr dst = p.tf.lmr(p.b, 64, Dat.MEM_PRIV_ALL);
        DatProvider dat = p.tf.fabric.provider();
        p.tf.at(T0, () -> {
            for (int i = 0; i < 10; i++) {
                p.tf.write(p.epA, iov(src, 0, 64), i, remote(dst, 0, 64), 0);
            }
        });
        p.tf.run();
        Set<Long> seen = new HashSet<>();
        for (int turn = 0; turn < 10; turn++) {
            Out<DatEvent> e = new Out<>();
            TestFabric.ok(dat.evdDequeue(p.a.reqEvd, e));
            assertTrue(seen.add(e.value.cookie), "cookie " + e.value.cookie + " delivered twice");
        }
        assertEquals(DatReturn.QUEUE_EMPTY, DatReturn.type(dat.evdDequeue(p.a.reqEvd, new Out<>())));
        assertEquals(10, seen.size());
    }

    @Test
    void rule20_aFenceOrdersOnlyWithinItsEndpoint() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Pair p = tf.connectedPair("A", "B", null, null);
        Ep second = tf.ep(p.a);
        Ep secondPeer = tf.ep(p.b);
        tf.connect(p.a, second, p.b, secondPeer);
        Lmr local = tf.lmr(p.a, 65536, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, 65536, Dat.MEM_PRIV_ALL);
        Lmr inbox = tf.lmr(p.b, 64, Dat.MEM_PRIV_ALL);
        tf.recv(secondPeer, iov(inbox, 0, 64), 1);
        long[] ops = new long[2];
        tf.at(T0, () -> {
            ops[0] = tf.read(p.epA, iov(local, 0, 65536), 1, remote(far, 0, 65536), 0);
            ops[1] = tf.send(second, iov(local, 0, 64), 2, Dat.COMPLETION_BARRIER_FENCE_FLAG);
        });
        tf.run();
        assertTrue(tf.events(TraceEvent.FENCE_WAIT, "A").isEmpty(), "the Read is on another endpoint");
        assertTrue(tf.event(TraceEvent.START, "A", ops[1]).tPs() < tf.event(TraceEvent.PLACE, "A", ops[0]).tPs());
    }

    @Test
    void rule21_theFenceDelaysTheStartNotTheOrderOfCompletions() {
        TestFabric.Pair p = TestFabric.pair();
        Lmr local = p.tf.lmr(p.a, 8192, Dat.MEM_PRIV_ALL);
        Lmr far = p.tf.lmr(p.b, 8192, Dat.MEM_PRIV_ALL);
        p.tf.at(T0, () -> {
            p.tf.read(p.epA, iov(local, 0, 4096), 1, remote(far, 0, 4096), 0);
            p.tf.write(p.epA, iov(local, 4096, 64), 2, remote(far, 4096, 64), Dat.COMPLETION_BARRIER_FENCE_FLAG);
            p.tf.write(p.epA, iov(local, 4096, 64), 3, remote(far, 4096, 64), 0);
        });
        p.tf.run();
        assertEquals(List.of(1L, 2L, 3L), TestFabric.cookies(p.tf.drain(p.a.reqEvd)));
    }

    @Test
    void rule24_aContextUsedBeforeItsBindExecutedIsRefusedAndBreaksTheConnection() {
        TestFabric tf = TestFabric.backToBack("hca.bind_time", "50us");
        TestFabric.Pair p = tf.connectedPair("A", "B", null, null);
        Lmr buf = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        Lmr src = tf.lmr(p.a, 64, Dat.MEM_PRIV_ALL);
        Out<Rmr> win = new Out<>();
        TestFabric.ok(tf.fabric.provider().rmrCreate(p.b.pz, win));
        Out<Integer> ctx = new Out<>();
        tf.at(T0, () -> TestFabric.ok(tf.fabric.provider().rmrBind(win.value, buf, seg(buf, 0, 4096),
                Dat.MEM_PRIV_REMOTE_WRITE, p.epB, 1, 0, ctx, new Out<>())));
        tf.at(T0 + 1_000_000L, () -> tf.write(p.epA, iov(src, 0, 64), 9,
                new RmrTriplet(ctx.value, buf.address(), 64), 0));
        tf.run();
        assertEquals(List.of(Dat.DTO_ERR_REMOTE_ACCESS), TestFabric.statuses(tf.drain(p.a.reqEvd)));
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, tf.only(p.b.connEvd).number);
    }

    @Test
    void rule26_aBindThatFailsAfterReturningBreaksTheConnection() {
        TestFabric tf = TestFabric.backToBack("hca.bind_time", "50us");
        TestFabric.Pair p = tf.connectedPair("A", "B", null, null);
        Lmr buf = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        DatProvider dat = tf.fabric.provider();
        Out<Rmr> win = new Out<>();
        TestFabric.ok(dat.rmrCreate(p.b.pz, win));
        tf.at(T0, () -> {
            TestFabric.ok(dat.rmrBind(win.value, buf, seg(buf, 0, 4096), Dat.MEM_PRIV_REMOTE_WRITE, p.epB, 1, 0,
                    new Out<>(), new Out<>()));
            TestFabric.ok(dat.rmrFree(win.value)); // freed while its bind waits to execute
        });
        tf.run();
        DatEvent e = tf.only(p.b.reqEvd);
        assertEquals(Dat.RMR_OPERATION_FAILED, e.status);
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epB.state());
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, tf.only(p.b.connEvd).number);
        TestFabric.ok(dat.lmrFree(buf));
    }

    @Test
    void rule30_onCoherentMemoryTheSyncCallsAreNoOpsThatSucceed() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        Lmr buf = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        DatProvider dat = tf.fabric.provider();
        assertTrue(!dat.lmrSyncRequired(a.ia));
        TestFabric.ok(dat.lmrSyncRdmaRead(a.ia, iov(buf, 0, 4096)));
        TestFabric.ok(dat.lmrSyncRdmaWrite(a.ia, iov(buf, 0, 4096)));
        assertEquals(0, a.host.memory().cachedLines());
    }

    @Test
    void rule33_cpuWritesToAnRdmaWriteTargetMustBeSyncedBeforeTheWrite() {
        for (boolean syncFirst : new boolean[] {false, true}) {
            TestFabric nc = TestFabric.backToBack("memory.coherence", "cpu_noncoherent");
            TestFabric.Pair q = nc.connectedPair("A", "B", null, null);
            Lmr qsrc = nc.lmr(q.a, 64, Dat.MEM_PRIV_ALL);
            Lmr qtarget = nc.lmr(q.b, 64, Dat.MEM_PRIV_ALL);
            cpuWrite(q.a, qsrc, 0, fill(64, 0x22));
            nc.fabric.provider().lmrSyncRdmaRead(q.a.ia, iov(qsrc, 0, 64)); // A's bytes reach memory
            cpuWrite(q.b, qtarget, 0, fill(64, 0x11)); // B's CPU writes the target (stays in its cache)
            if (syncFirst) {
                TestFabric.ok(nc.fabric.provider().lmrSyncRdmaWrite(q.b.ia, iov(qtarget, 0, 64)));
            }
            nc.at(T0, () -> nc.write(q.epA, iov(qsrc, 0, 64), 1, remote(qtarget, 0, 64), 0));
            nc.run();
            assertEquals(List.of(Dat.DTO_SUCCESS), TestFabric.statuses(nc.drain(q.a.reqEvd)));
            TestFabric.ok(nc.fabric.provider().lmrSyncRdmaWrite(q.b.ia, iov(qtarget, 0, 64)));
            byte[] seen = cpuRead(q.b, qtarget, 0, 64);
            assertArrayEquals(fill(64, syncFirst ? 0x22 : 0x11), seen, syncFirst
                    ? "synced before the Write: the CPU reads what the Write placed"
                    : "not synced: the CPU's old dirty line overwrote what the Write placed");
        }
    }

    @Test
    void rule34_syncArgumentsAreCheckedAndOneCallMayCoverSeveralLmrs() {
        TestFabric tf = TestFabric.backToBack("memory.coherence", "cpu_noncoherent");
        TestFabric.Node a = tf.open("A");
        Lmr one = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        Out<Pz> other = new Out<>();
        TestFabric.ok(tf.fabric.provider().pzCreate(a.ia, other));
        Lmr two = tf.lmr(a, other.value, 4096, Dat.MEM_PRIV_ALL);
        DatProvider dat = tf.fabric.provider();
        assertTrue(dat.lmrSyncRequired(a.ia));
        TestFabric.ok(dat.lmrSyncRdmaWrite(a.ia, new LmrTriplet[] {seg(one, 0, 64), seg(two, 128, 64)}));
        TestFabric.assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2,
                dat.lmrSyncRdmaWrite(a.ia, new LmrTriplet[] {seg(one, 4000, 200)}));
        TestFabric.assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA,
                dat.lmrSyncRdmaRead(null, new LmrTriplet[] {seg(one, 0, 64)}));
    }

    @Test
    void rule35_theSyncCallsNeitherWaitForNorDelayOperations() {
        long[] completions = new long[2];
        for (int run = 0; run < 2; run++) {
            TestFabric tf = TestFabric.backToBack("memory.coherence", "cpu_noncoherent");
            TestFabric.Pair p = tf.connectedPair("A", "B", null, null);
            Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
            Lmr dst = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
            boolean sync = run == 1;
            tf.at(T0, () -> {
                tf.write(p.epA, iov(src, 0, 4096), 1, remote(dst, 0, 4096), 0);
                if (sync) {
                    TestFabric.ok(tf.fabric.provider().lmrSyncRdmaWrite(p.b.ia, iov(dst, 0, 4096)));
                }
            });
            tf.run();
            completions[run] = tf.only(p.a.reqEvd).queuedPs;
        }
        assertEquals(completions[0], completions[1]);
    }

    @Test
    void rule41_transferedLengthIsTheBytesReceivedAndCookiesComeBackUnchanged() {
        TestFabric.Pair p = TestFabric.pair();
        Lmr src = p.tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = p.tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        long cookie = 0xFEDCBA9876543210L;
        p.tf.recv(p.epB, iov(dst, 0, 4096), cookie);
        p.tf.at(T0, () -> p.tf.send(p.epA, iov(src, 0, 777), -1L, 0));
        p.tf.run();
        DatEvent r = p.tf.only(p.b.recvEvd);
        assertEquals(777, r.transferredLength);
        assertEquals(cookie, r.cookie);
        assertEquals(-1L, p.tf.only(p.a.reqEvd).cookie);
    }
}

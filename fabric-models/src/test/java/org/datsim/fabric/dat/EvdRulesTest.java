package org.datsim.fabric.dat;

import static org.datsim.fabric.TestFabric.assertError;
import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.ok;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.datsim.fabric.TestFabric;
import org.junit.jupiter.api.Test;

/**
 * Event dispatchers (rules 4, 5, 7, 8, 13): dequeue on an empty EVD, the argument checks of dat_evd_wait, the
 * exclusive waiter, waking on notifications only, overflow reported on the IA's async EVD, and dat_evd_create's
 * queue-length check.
 */
class EvdRulesTest {

    private static final long T0 = 100_000_000L;

    @Test
    void rule7_dequeueOnAnEmptyEvdIsQueueEmpty() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        Out<DatEvent> e = new Out<>();
        int ret = tf.dat.evdDequeue(a.reqEvd, e);
        assertError(DatReturn.QUEUE_EMPTY, 0, ret);
        assertEquals(0x800D0000, ret);
        assertNull(e.get());
    }

    @Test
    void rule5_waitThresholdOutsideOneToQlenIsInvalidParameter() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        Evd evd = tf.evd(a.ia, 8, Dat.EVD_DTO_FLAG);
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG3, tf.dat.evdWaitCheck(evd, 10, 0));
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG3, tf.dat.evdWaitCheck(evd, 10, -1));
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG3, tf.dat.evdWaitCheck(evd, 10, 9));
        ok(tf.dat.evdWaitCheck(evd, 10, 1));
        ok(tf.dat.evdWaitCheck(evd, 10, 8));
        ok(tf.dat.evdWaitCheck(evd, Dat.TIMEOUT_INFINITE, 1));
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2,
                tf.dat.evdWaitCheck(evd, Dat.TIMEOUT_INFINITE + 1, 1));
    }

    @Test
    void rule4_aWaiterOwnsTheEvd() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        tf.dat.evdSetWaiter(a.reqEvd, () -> { });
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EVD_WAITER,
                tf.dat.evdWaitCheck(a.reqEvd, 10, 1));
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EVD_WAITER,
                tf.dat.evdDequeue(a.reqEvd, new Out<>()));
        tf.dat.evdSetWaiter(a.reqEvd, null);
        assertFalse(a.reqEvd.hasWaiter());
        assertError(DatReturn.QUEUE_EMPTY, 0, tf.dat.evdDequeue(a.reqEvd, new Out<>()));
    }

    @Test
    void rule13_onlyNotificationsWakeTheWaiter() {
        TestFabric tf = TestFabric.backToBack();
        EpAttributes d = EpAttributes.defaults();
        EpAttributes unsignalled = new EpAttributes(d.maxMessageSize(), d.maxRdmaSize(), d.maxRecvDtos(),
                d.maxRequestDtos(), d.maxRecvIov(), d.maxRequestIov(), Dat.COMPLETION_UNSIGNALLED_FLAG,
                d.recvCompletionFlags());
        TestFabric.Pair p = tf.connectedPair("A", "B", unsignalled, null);
        Lmr buf = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        long[] wakes = new long[1];
        long[] wokenAt = new long[1];
        int[] queuedAtWake = new int[1];
        tf.dat.evdSetWaiter(p.a.reqEvd, () -> {
            wakes[0]++;
            wokenAt[0] = tf.sim.now();
            queuedAtWake[0] = p.a.reqEvd.size();
        });
        tf.at(T0, () -> tf.write(p.epA, iov(buf, 0, 8), 1, remote(far, 0, 8), Dat.COMPLETION_UNSIGNALLED_FLAG));
        tf.at(T0 + 50_000_000, () -> tf.write(p.epA, iov(buf, 0, 8), 2, remote(far, 0, 8), 0));
        tf.run();
        assertEquals(1, wakes[0], "only the signalled completion woke the waiter");
        assertEquals(2, queuedAtWake[0], "the waiter finds both completions");
        tf.dat.evdSetWaiter(p.a.reqEvd, null);
        List<DatEvent> events = tf.drain(p.a.reqEvd);
        assertEquals(List.of(1L, 2L), TestFabric.cookies(events));
        assertEquals(events.get(1).queuedPs, wokenAt[0]);
    }

    @Test
    void rule8_overflowIsReportedOnTheAsyncEvd() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        Evd small = tf.evd(a.ia, 2, Dat.EVD_DTO_FLAG);
        Out<Ep> epA = new Out<>();
        ok(tf.dat.epCreate(a.ia, a.pz, a.recvEvd, small, a.connEvd, null, epA));
        Ep epB = tf.ep(b);
        tf.connect(a, epA.get(), b, epB);
        Lmr buf = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(b, 4096, Dat.MEM_PRIV_ALL);
        tf.at(T0, () -> {
            for (int i = 1; i <= 3; i++) {
                tf.write(epA.get(), iov(buf, 0, 8), i, remote(far, 0, 8), 0);
            }
        });
        tf.run();
        assertEquals(List.of(1L, 2L), TestFabric.cookies(tf.drain(small)), "the third completion was lost");
        assertEquals(1, small.overflows());
        DatEvent async = tf.only(a.ia.asyncEvd());
        assertEquals(Dat.ASYNC_ERROR_EVD_OVERFLOW, async.number);
        assertEquals(0x08001, async.number);
        assertEquals("DAT_ASYNC_ERROR_EVD_OVERFLOW", async.numberName());
        assertEquals(List.of(), tf.drain(b.ia.asyncEvd()));
    }

    @Test
    void evdCreateChecksQueueLengthAndFlags() {
        TestFabric tf = TestFabric.backToBack("ia.max_evd_qlen", "1000");
        TestFabric.Node a = tf.open("A");
        Out<Evd> evd = new Out<>();
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2,
                tf.dat.evdCreate(a.ia, 0, Dat.EVD_DTO_FLAG, evd));
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2,
                tf.dat.evdCreate(a.ia, -5, Dat.EVD_DTO_FLAG, evd));
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2,
                tf.dat.evdCreate(a.ia, 1001, Dat.EVD_DTO_FLAG, evd));
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG4, tf.dat.evdCreate(a.ia, 8, 0, evd));
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG4,
                tf.dat.evdCreate(a.ia, 8, Dat.EVD_ASYNC_FLAG, evd));
        assertNull(evd.get());
        ok(tf.dat.evdCreate(a.ia, 1000, Dat.EVD_DTO_FLAG | Dat.EVD_CONNECTION_FLAG, evd));
        assertEquals(1000, evd.get().qlen());
    }

    @Test
    void rule8_overflowBreaksTheConnectionsFeedingTheEvd() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        Evd small = tf.evd(a.ia, 2, Dat.EVD_DTO_FLAG);
        Out<Ep> epA = new Out<>();
        ok(tf.dat.epCreate(a.ia, a.pz, a.recvEvd, small, a.connEvd, null, epA));
        Ep epB = tf.ep(b);
        tf.connect(a, epA.get(), b, epB);
        Lmr buf = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(b, 4096, Dat.MEM_PRIV_ALL);
        tf.at(T0, () -> {
            for (int i = 1; i <= 3; i++) {
                tf.write(epA.get(), iov(buf, 0, 8), i, remote(far, 0, 8), 0);
            }
        });
        tf.run();
        assertEquals(Dat.ASYNC_ERROR_EVD_OVERFLOW, tf.only(a.ia.asyncEvd()).number);
        assertEquals(Dat.EP_STATE_DISCONNECTED, epA.get().state());
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, tf.only(a.connEvd).number);
    }
}

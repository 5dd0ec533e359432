package org.datsim.fabric.dat;

import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.topology.LinkSpec;
import org.datsim.fabric.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * Behaviour a code review found wrong, each case reproduced first: flushes that crashed or reached too far,
 * acknowledgements overtaking Read responses, endpoint states during connection setup and abrupt disconnect,
 * request-slot accounting of suppressed completions, EVD ownership, rule 6, parallel links.
 */
class ReviewRegressionTest {

    private static final long T0 = 100_000_000L;

    @Test
    void rule44_anEarlierReadStillSucceedsWhenALaterWriteFails() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr local = tf.lmr(p.a, 8192, Dat.MEM_PRIV_ALL);
        Lmr source = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        tf.at(T0, () -> {
            tf.read(p.epA, iov(local, 0, 4096), 1, remote(source, 0, 4096), 0);
            tf.write(p.epA, iov(local, 4096, 64), 2, new RmrTriplet(0x7777, source.address(), 64), 0);
        });
        tf.run();
        List<DatEvent> req = tf.drain(p.a.reqEvd);
        assertEquals(List.of(1L, 2L), TestFabric.cookies(req));
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_ERR_REMOTE_ACCESS), TestFabric.statuses(req),
                "the Read was answered before the Write failed; only later operations are flushed");
    }

    @Test
    void aFlushWhileAMultiPacketSendIsArrivingDropsTheRestWithoutCrashing() {
        TestFabric.Pair p = TestFabric.pair("hca.mtu", "256B", "link.bandwidth", "1Gbps");
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        tf.recv(p.epB, iov(dst, 0, 4096), 7);
        tf.at(T0, () -> tf.send(p.epA, iov(src, 0, 4096), 1, 0));
        // 4 KiB at 1 Gb/s take about 33 us on the wire: disconnect B abruptly in the middle.
        tf.at(T0 + 10_000_000L, () -> TestFabric.ok(tf.fabric.provider().epDisconnect(p.epB,
                Dat.CLOSE_ABRUPT_FLAG)));
        tf.run();
        List<DatEvent> recv = tf.drain(p.b.recvEvd);
        assertEquals(List.of(Dat.DTO_ERR_FLUSHED), TestFabric.statuses(recv));
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epB.state());
    }

    @Test
    void rule45_abruptDisconnectMovesToDisconnectedAtOnceAndLaterPostsFlush() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 64, Dat.MEM_PRIV_ALL);
        DatProvider dat = tf.fabric.provider();
        List<Integer> states = new ArrayList<>();
        tf.at(T0, () -> {
            TestFabric.ok(dat.epDisconnect(p.epA, Dat.CLOSE_ABRUPT_FLAG));
            states.add(p.epA.state());
            TestFabric.ok(dat.postSend(p.epA, iov(src, 0, 64), 5, 0, new Out<>()));
        });
        tf.run();
        assertEquals(List.of(Dat.EP_STATE_DISCONNECTED), states);
        assertEquals(List.of(Dat.DTO_ERR_FLUSHED), TestFabric.statuses(tf.drain(p.a.reqEvd)));
        List<DatEvent> conn = tf.drain(p.a.connEvd);
        assertEquals(1, conn.size(), "one DISCONNECTED event, not a second one when the DREP arrives");
        assertEquals(Dat.CONNECTION_EVENT_DISCONNECTED, conn.get(0).number);
    }

    @Test
    void thePassiveSideIsEstablishedByTheFirstPacketBeforeItsReceiveCompletes() {
        TestFabric tf = TestFabric.backToBack("cm.processing", "20us");
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        Ep epA = tf.ep(a);
        Ep epB = tf.ep(b);
        Lmr src = tf.lmr(a, 64, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(b, 64, Dat.MEM_PRIV_ALL);
        tf.recv(epB, iov(dst, 0, 64), 3);
        DatProvider dat = tf.fabric.provider();
        TestFabric.ok(dat.pspCreate(b.ia, 77, b.crEvd, 0, new Out<>()));
        TestFabric.ok(dat.epConnect(epA, "B", 77, Dat.TIMEOUT_INFINITE, new byte[0]));
        List<Integer> stateAtReceive = new ArrayList<>();
        tf.runUntil(30_000_000L);
        TestFabric.ok(dat.crAccept(tf.only(b.crEvd).cr, epB, new byte[0]));
        tf.runUntil(60_000_000L); // A is established (REP handled), B still waits for the RTU's processing
        assertEquals(Dat.EP_STATE_CONNECTED, epA.state());
        assertEquals(Dat.EP_STATE_COMPLETION_PENDING, epB.state());
        tf.send(epA, iov(src, 0, 64), 1, 0);
        tf.run();
        List<DatEvent> conn = tf.drain(b.connEvd);
        assertEquals(1, conn.size());
        assertEquals(Dat.CONNECTION_EVENT_ESTABLISHED, conn.get(0).number);
        DatEvent rcv = tf.only(b.recvEvd);
        assertTrue(conn.get(0).queuedPs <= rcv.queuedPs, "ESTABLISHED comes before the first completion");
        assertEquals(Dat.EP_STATE_CONNECTED, epB.state());
        stateAtReceive.add(epB.state());
    }

    @Test
    void rule11_suppressedCompletionsHoldTheirSlotsUntilASignalledOneIsReaped() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Pair p = tf.connectedPair("A", "B",
                new EpAttributes(1L << 30, 1L << 30, 64, 2, 4, 4, 0, 0), null);
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        DatProvider dat = tf.fabric.provider();
        List<Integer> rets = new ArrayList<>();
        tf.at(T0, () -> {
            rets.add(dat.postRdmaWrite(p.epA, iov(src, 0, 8), 1, remote(dst, 0, 8), Dat.COMPLETION_SUPPRESS_FLAG,
                    new Out<>()));
            rets.add(dat.postRdmaWrite(p.epA, iov(src, 0, 8), 2, remote(dst, 0, 8), Dat.COMPLETION_SUPPRESS_FLAG,
                    new Out<>()));
        });
        tf.at(T0 + 50_000_000L, () -> rets.add(dat.postRdmaWrite(p.epA, iov(src, 0, 8), 3, remote(dst, 0, 8),
                Dat.COMPLETION_SUPPRESS_FLAG, new Out<>())));
        tf.run();
        assertEquals(DatReturn.SUCCESS, rets.get(0));
        assertEquals(DatReturn.SUCCESS, rets.get(1));
        assertEquals(DatReturn.INSUFFICIENT_RESOURCES, DatReturn.type(rets.get(2)),
                "both slots stay taken after the suppressed completions: nothing signalled was reaped");
        assertEquals(0, p.a.reqEvd.size());
    }

    @Test
    void anEvdOfAnotherIaIsAnInvalidHandle() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        DatProvider dat = tf.fabric.provider();
        TestFabric.assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EVD_REQUEST,
                dat.epCreate(a.ia, a.pz, a.recvEvd, b.reqEvd, a.connEvd, null, new Out<>()));
        TestFabric.assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EVD_CR,
                dat.pspCreate(a.ia, 5, b.crEvd, 0, new Out<>()));
    }

    @Test
    void rule6_thresholdAboveOneOnAnEvdFedByUnsignalledCompletionsIsInvalidState() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        tf.ep(a, new EpAttributes(1L << 30, 1L << 30, 64, 64, 4, 4, Dat.COMPLETION_UNSIGNALLED_FLAG, 0));
        DatProvider dat = tf.fabric.provider();
        TestFabric.assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EVD_CONFIG_THRESHOLD,
                dat.evdWaitCheck(a.reqEvd, 10, 2));
        TestFabric.ok(dat.evdWaitCheck(a.reqEvd, 10, 1));
    }

    @Test
    void rule14_solicitedWaitReceiveNotificationIsAcceptedAtEpCreate() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        int ret = tf.fabric.provider().epCreate(a.ia, a.pz, a.recvEvd, a.reqEvd, a.connEvd,
                new EpAttributes(1L << 30, 1L << 30, 64, 64, 4, 4, 0, Dat.COMPLETION_SOLICITED_WAIT_FLAG),
                new Out<>());
        assertEquals(DatReturn.SUCCESS, ret);
    }

    @Test
    void twoIdenticalLinksAreTwoLinksAndAHostMayHaveOnlyOne() {
        List<String> problems = new ArrayList<>();
        Topology t = Topology.build(List.of("A", "B"), List.of(),
                List.of(new LinkSpec("A", "B", 0, -1), new LinkSpec("A", "B", 0, -1)), problems);
        assertEquals(null, t);
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("host \"A\" has 2 links"), problems.toString());
    }
}

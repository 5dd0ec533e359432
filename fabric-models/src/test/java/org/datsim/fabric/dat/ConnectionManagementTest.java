package org.datsim.fabric.dat;

import static org.datsim.fabric.TestFabric.assertError;
import static org.datsim.fabric.TestFabric.cpuRead;
import static org.datsim.fabric.TestFabric.cpuWrite;
import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.ok;
import static org.datsim.fabric.TestFabric.randomBytes;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.TestFabric;
import org.junit.jupiter.api.Test;

/**
 * Connection management: rejections by nobody listening and by the consumer, an unknown remote address, a connect
 * timeout, a connection qualifier used twice, and graceful and abrupt disconnects (rules 43, 45, 46).
 */
class ConnectionManagementTest {

    private static final long T0 = 100_000_000L;

    @Test
    void connectToAQualifierNobodyListensOnIsNonPeerRejected() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        Out<Psp> psp = new Out<>();
        ok(tf.dat.pspCreate(b.ia, 10, b.crEvd, 0, psp));
        Ep ep = tf.ep(a);
        Lmr buf = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        tf.recv(ep, iov(buf, 0, 64), 3);
        ok(tf.dat.epConnect(ep, "B", 11, Dat.TIMEOUT_INFINITE, new byte[0]));
        assertEquals(Dat.EP_STATE_ACTIVE_CONNECTION_PENDING, ep.state());
        tf.run();
        DatEvent e = tf.only(a.connEvd);
        assertEquals(Dat.CONNECTION_EVENT_NON_PEER_REJECTED, e.number);
        assertEquals(ep, e.ep);
        assertEquals(Dat.EP_STATE_DISCONNECTED, ep.state());
        assertEquals(List.of(), tf.drain(b.crEvd), "the listener on another qualifier saw nothing");
        assertEquals(List.of(Dat.DTO_ERR_FLUSHED), TestFabric.statuses(tf.drain(a.recvEvd)));
    }

    @Test
    void crRejectGivesPeerRejected() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        Out<Psp> psp = new Out<>();
        ok(tf.dat.pspCreate(b.ia, 10, b.crEvd, 0, psp));
        Ep ep = tf.ep(a);
        Ep passive = tf.ep(b);
        ok(tf.dat.epConnect(ep, "B", 10, Dat.TIMEOUT_INFINITE, new byte[] {9, 8, 7}));
        tf.runUntilCmResend();
        DatEvent req = tf.only(b.crEvd);
        assertEquals(Dat.CONNECTION_REQUEST_EVENT, req.number);
        assertArrayEquals(new byte[] {9, 8, 7}, req.cr.privateData());
        assertEquals(10, req.cr.connQual());
        ok(tf.dat.crReject(req.cr));
        assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CR,
                tf.dat.crAccept(req.cr, passive, new byte[0]));
        tf.run();
        DatEvent e = tf.only(a.connEvd);
        assertEquals(Dat.CONNECTION_EVENT_PEER_REJECTED, e.number);
        assertEquals(Dat.EP_STATE_DISCONNECTED, ep.state());
        assertEquals(Dat.EP_STATE_UNCONNECTED, passive.state());
        assertEquals(List.of(), tf.drain(b.connEvd));
    }

    @Test
    void connectToAnUnknownHostIsInvalidAddress() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        Ep ep = tf.ep(a);
        assertError(DatReturn.INVALID_ADDRESS, DatReturn.SUB_INVALID_ADDRESS_UNREACHABLE,
                tf.dat.epConnect(ep, "Z", 10, Dat.TIMEOUT_INFINITE, new byte[0]));
        assertEquals(Dat.EP_STATE_UNCONNECTED, ep.state());
        tf.run();
        assertEquals(List.of(), tf.drain(a.connEvd));
    }

    @Test
    void connectTimesOutWhenThePassiveSideNeverAccepts() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        Out<Psp> psp = new Out<>();
        ok(tf.dat.pspCreate(b.ia, 10, b.crEvd, 0, psp));
        Ep ep = tf.ep(a);
        long timeoutUs = 50;
        tf.at(T0, () -> ok(tf.dat.epConnect(ep, "B", 10, timeoutUs, new byte[0])));
        tf.run();
        assertEquals(Dat.CONNECTION_REQUEST_EVENT, tf.only(b.crEvd).number, "the request did arrive");
        DatEvent e = tf.only(a.connEvd);
        assertEquals(Dat.CONNECTION_EVENT_TIMED_OUT, e.number);
        assertEquals(T0 + timeoutUs * 1_000_000L, e.queuedPs, "the timeout is in microseconds");
        assertEquals(Dat.EP_STATE_DISCONNECTED, ep.state());
    }

    @Test
    void connectWithTimeoutThatIsAcceptedInTimeDoesNotTimeOut() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        Out<Psp> psp = new Out<>();
        ok(tf.dat.pspCreate(b.ia, 10, b.crEvd, 0, psp));
        Ep ep = tf.ep(a);
        Ep passive = tf.ep(b);
        ok(tf.dat.epConnect(ep, "B", 10, 1000, new byte[0]));
        tf.runUntil(100_000_000L);
        ok(tf.dat.crAccept(tf.only(b.crEvd).cr, passive, new byte[0]));
        tf.run();
        assertEquals(List.of(Dat.CONNECTION_EVENT_ESTABLISHED), TestFabric.numbers(tf.drain(a.connEvd)));
        assertEquals(Dat.EP_STATE_CONNECTED, ep.state());
        assertTrue(tf.sim.now() < 1000 * 1_000_000L, "the cancelled timer did not run: " + tf.sim.now());
    }

    @Test
    void pspCreateTwiceOnOneQualifierIsConnQualInUse() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node b = tf.open("B");
        Out<Psp> first = new Out<>();
        ok(tf.dat.pspCreate(b.ia, 10, b.crEvd, 0, first));
        Out<Psp> second = new Out<>();
        int ret = tf.dat.pspCreate(b.ia, 10, b.crEvd, 0, second);
        assertError(DatReturn.CONN_QUAL_IN_USE, 0, ret);
        ok(tf.dat.pspCreate(b.ia, 11, b.crEvd, 0, second));
        ok(tf.dat.pspFree(first.get()));
        ok(tf.dat.pspCreate(b.ia, 10, b.crEvd, 0, new Out<>()));
    }

    @Test
    void rule45_gracefulDisconnectLetsAnOutstandingWriteCompleteFirst() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        int len = 1 << 20;
        Lmr src = tf.lmr(p.a, len, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, len, Dat.MEM_PRIV_ALL);
        byte[] data = randomBytes(len, 45);
        cpuWrite(p.a, src, 0, data);
        long[] op = new long[1];
        int[] stateAfter = new int[1];
        int[] postDuring = new int[1];
        tf.at(T0, () -> op[0] = tf.write(p.epA, iov(src, 0, len), 1, remote(dst, 0, len), 0));
        tf.at(T0 + 1_000_000, () -> {
            ok(tf.dat.epDisconnect(p.epA, Dat.CLOSE_GRACEFUL_FLAG));
            stateAfter[0] = p.epA.state();
            postDuring[0] = tf.dat.postRdmaWrite(p.epA, iov(src, 0, 8), 2, remote(dst, 0, 8), 0, new Out<>());
        });
        tf.run();
        assertEquals(Dat.EP_STATE_DISCONNECT_PENDING, stateAfter[0]);
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_UNCONNECTED, postDuring[0]);

        DatEvent write = tf.only(p.a.reqEvd);
        assertEquals(Dat.DTO_SUCCESS, write.status);
        assertEquals(len, write.transferredLength);
        assertArrayEquals(data, cpuRead(p.b, dst, 0, len));

        DatEvent discA = tf.only(p.a.connEvd);
        DatEvent discB = tf.only(p.b.connEvd);
        assertEquals(Dat.CONNECTION_EVENT_DISCONNECTED, discA.number);
        assertEquals(Dat.CONNECTION_EVENT_DISCONNECTED, discB.number);
        assertTrue(discA.queuedPs > write.queuedPs, "A: the write completed before DISCONNECTED");
        long placed = tf.event(TraceEvent.PLACE, "B", op[0]).tPs();
        assertTrue(discB.queuedPs > placed, "B: the data was placed before DISCONNECTED");
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epB.state());
    }

    @Test
    void rule45_gracefulDisconnectWithNothingOutstandingDisconnectsBothSides() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr sink = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        tf.recv(p.epB, iov(sink, 0, 64), 8);
        ok(tf.dat.epDisconnect(p.epB, Dat.CLOSE_GRACEFUL_FLAG));
        tf.run();
        assertEquals(Dat.CONNECTION_EVENT_DISCONNECTED, tf.only(p.a.connEvd).number);
        assertEquals(Dat.CONNECTION_EVENT_DISCONNECTED, tf.only(p.b.connEvd).number);
        assertEquals(List.of(Dat.DTO_ERR_FLUSHED), TestFabric.statuses(tf.drain(p.b.recvEvd)));
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epB.state());
    }

    @Test
    void rule43_abruptDisconnectFlushesOperationsThatHaveNotStarted() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        int len = 1 << 20;
        Lmr src = tf.lmr(p.a, 3 * len, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 3 * len, Dat.MEM_PRIV_ALL);
        cpuWrite(p.a, src, 0, randomBytes(3 * len, 43));
        Lmr sink = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        tf.recv(p.epB, iov(sink, 0, 64), 99);
        long[] ops = new long[3];
        tf.at(T0, () -> {
            for (int i = 0; i < 3; i++) {
                ops[i] = tf.write(p.epA, iov(src, (long) i * len, len), i, remote(dst, (long) i * len, len), 0);
            }
        });
        // 2 us later the first write is in its payload DMA; the other two have not started.
        tf.at(T0 + 2_000_000, () -> ok(tf.dat.epDisconnect(p.epA, Dat.CLOSE_ABRUPT_FLAG)));
        tf.run();
        assertEquals(1, tf.events(TraceEvent.START, "A").stream().filter(e -> e.op() >= ops[0]).count(),
                "only the first write started");
        List<DatEvent> events = tf.drain(p.a.reqEvd);
        assertEquals(List.of(0L, 1L, 2L), TestFabric.cookies(events));
        assertTrue(events.get(0).status == Dat.DTO_SUCCESS || events.get(0).status == Dat.DTO_ERR_FLUSHED,
                "an in-progress DTO may succeed or fail: " + TestFabric.describe(events));
        assertEquals(Dat.DTO_ERR_FLUSHED, events.get(1).status);
        assertEquals(Dat.DTO_ERR_FLUSHED, events.get(2).status);
        assertEquals(List.of(), tf.events(TraceEvent.PLACE, "B"), "no write was placed in full");
        assertEquals(Dat.CONNECTION_EVENT_DISCONNECTED, tf.only(p.a.connEvd).number);
        assertEquals(Dat.CONNECTION_EVENT_DISCONNECTED, tf.only(p.b.connEvd).number);
        assertEquals(List.of(Dat.DTO_ERR_FLUSHED), TestFabric.statuses(tf.drain(p.b.recvEvd)));
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epB.state());
        assertEquals(0, p.epA.requestsInFlight());
    }

    @Test
    void rule46_disconnectInUnconnectedIsInvalidStateAndInDisconnectedIsANoOp() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        Ep ep = tf.ep(a);
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_UNCONNECTED,
                tf.dat.epDisconnect(ep, Dat.CLOSE_ABRUPT_FLAG));
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_UNCONNECTED,
                tf.dat.epDisconnect(ep, Dat.CLOSE_GRACEFUL_FLAG));
        assertEquals(Dat.EP_STATE_UNCONNECTED, ep.state());

        TestFabric.Pair p = TestFabric.pair();
        ok(p.tf.dat.epDisconnect(p.epA, Dat.CLOSE_ABRUPT_FLAG));
        p.tf.run();
        assertEquals(Dat.CONNECTION_EVENT_DISCONNECTED, p.tf.only(p.a.connEvd).number);
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
        ok(p.tf.dat.epDisconnect(p.epA, Dat.CLOSE_ABRUPT_FLAG));
        ok(p.tf.dat.epDisconnect(p.epA, Dat.CLOSE_GRACEFUL_FLAG));
        p.tf.run();
        assertEquals(List.of(), p.tf.drain(p.a.connEvd), "no second event");
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
    }

    @Test
    void rule46_disconnectDuringActiveConnectionPendingAbortsAndFlushesReceives() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        Out<Psp> psp = new Out<>();
        ok(tf.dat.pspCreate(b.ia, 10, b.crEvd, 0, psp));
        Ep ep = tf.ep(a);
        Lmr buf = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        tf.recv(ep, iov(buf, 0, 64), 1);
        tf.recv(ep, iov(buf, 64, 64), 2);
        ok(tf.dat.epConnect(ep, "B", 10, Dat.TIMEOUT_INFINITE, new byte[0]));
        ok(tf.dat.epDisconnect(ep, Dat.CLOSE_ABRUPT_FLAG));
        assertEquals(Dat.EP_STATE_DISCONNECTED, ep.state());
        tf.run();
        List<DatEvent> recvs = tf.drain(a.recvEvd);
        assertEquals(List.of(1L, 2L), TestFabric.cookies(recvs));
        assertEquals(List.of(Dat.DTO_ERR_FLUSHED, Dat.DTO_ERR_FLUSHED), TestFabric.statuses(recvs));
        assertEquals(Dat.EP_STATE_DISCONNECTED, ep.state());
    }

    @Test
    void badCloseFlagsAreInvalidParameter() {
        TestFabric.Pair p = TestFabric.pair();
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2, p.tf.dat.epDisconnect(p.epA, 7));
        assertEquals(Dat.EP_STATE_CONNECTED, p.epA.state());
    }

    @Test
    void simultaneousAbruptDisconnectsGiveOneDisconnectedEventEachSide() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        tf.at(T0, () -> {
            ok(tf.dat.epDisconnect(p.epA, Dat.CLOSE_ABRUPT_FLAG));
            ok(tf.dat.epDisconnect(p.epB, Dat.CLOSE_ABRUPT_FLAG));
        });
        tf.run();
        assertEquals(List.of(Dat.CONNECTION_EVENT_DISCONNECTED), TestFabric.numbers(tf.drain(p.a.connEvd)));
        assertEquals(List.of(Dat.CONNECTION_EVENT_DISCONNECTED), TestFabric.numbers(tf.drain(p.b.connEvd)));
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epB.state());
    }

    /** Connects two endpoints of host A to each other (loopback) and moves data between them. */
    private static void assertLoopbackWorks(TestFabric tf) {
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        Out<Psp> onA = new Out<>();
        Out<Psp> onB = new Out<>();
        ok(tf.dat.pspCreate(a.ia, 10, a.crEvd, 0, onA));
        ok(tf.dat.pspCreate(b.ia, 10, b.crEvd, 0, onB));
        Ep client = tf.ep(a);
        Ep server = tf.ep(a);
        ok(tf.dat.epConnect(client, "A", 10, Dat.TIMEOUT_INFINITE, new byte[0]));
        tf.runUntilCmResend();
        assertEquals(List.of(), tf.drain(b.crEvd), "a request addressed to A must not reach B");
        DatEvent req = tf.only(a.crEvd);
        ok(tf.dat.crAccept(req.cr, server, new byte[0]));
        tf.run();
        assertEquals(List.of(Dat.CONNECTION_EVENT_ESTABLISHED, Dat.CONNECTION_EVENT_ESTABLISHED),
                TestFabric.numbers(tf.drain(a.connEvd)));
        Lmr src = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        byte[] data = randomBytes(3000, 4);
        cpuWrite(a, src, 0, data);
        tf.at(tf.sim.now() + 1_000_000, () -> tf.write(client, iov(src, 0, 3000), 1, remote(dst, 0, 3000), 0));
        tf.run();
        assertEquals(Dat.DTO_SUCCESS, tf.only(a.reqEvd).status);
        assertArrayEquals(data, cpuRead(a, dst, 0, 3000));
        assertEquals(0, b.host.memory().residentBytes(), "nothing was written on B");
    }

    @Test
    void loopbackConnectionThroughASwitchWorks() {
        assertLoopbackWorks(TestFabric.star());
    }

    @Test
    void loopbackConnectionOnABackToBackLinkStaysOnTheHost() {
        assertLoopbackWorks(TestFabric.backToBack());
    }
}

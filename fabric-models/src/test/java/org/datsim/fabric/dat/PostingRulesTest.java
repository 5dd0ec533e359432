package org.datsim.fabric.dat;

import static org.datsim.fabric.TestFabric.assertError;
import static org.datsim.fabric.TestFabric.cpuRead;
import static org.datsim.fabric.TestFabric.cpuWrite;
import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.ok;
import static org.datsim.fabric.TestFabric.randomBytes;
import static org.datsim.fabric.TestFabric.remote;
import static org.datsim.fabric.TestFabric.seg;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.TestFabric;
import org.junit.jupiter.api.Test;

/**
 * Post-time checks of dat_ep_post_send/recv/rdma_write/rdma_read and their completion flags (rules 10, 12, 40, 42,
 * 47, 48, 50): state checks with their exact DAT_RETURN (class bit, type, subtype), privilege, protection, range
 * and length checks, request-queue depth, and event suppression.
 */
class PostingRulesTest {

    private static final long T0 = 100_000_000L;

    /** Default endpoint attributes with the given request_completion_flags and max_request_dtos. */
    private static EpAttributes withRequestFlags(int flags, int maxRequestDtos) {
        EpAttributes d = EpAttributes.defaults();
        return new EpAttributes(d.maxMessageSize(), d.maxRdmaSize(), d.maxRecvDtos(), maxRequestDtos,
                d.maxRecvIov(), d.maxRequestIov(), flags, d.recvCompletionFlags());
    }

    @Test
    void rule42_postSendInUnconnectedIsInvalidStateEpUnconnected() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        Ep ep = tf.ep(a);
        Lmr buf = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        Out<Long> op = new Out<>();
        int ret = tf.dat.postSend(ep, iov(buf, 0, 64), 1, 0, op);
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_UNCONNECTED, ret);
        assertEquals(0x8007002F, ret, "DAT_ERROR(DAT_INVALID_STATE, DAT_INVALID_STATE_EP_UNCONNECTED)");
        assertEquals("DAT_INVALID_STATE DAT_INVALID_STATE_EP_UNCONNECTED", DatProvider.strerror(ret));
        assertNull(op.get(), "no output on failure");
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_UNCONNECTED,
                tf.dat.postRdmaWrite(ep, iov(buf, 0, 64), 1, remote(buf, 0, 64), 0, op));
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_UNCONNECTED,
                tf.dat.postRdmaRead(ep, iov(buf, 0, 64), 1, remote(buf, 0, 64), 0, op));
        tf.run();
        assertEquals(List.of(), tf.drain(a.reqEvd));
        assertEquals(0, ep.requestsInFlight());
    }

    @Test
    void rule42_postDuringConnectionSetupIsInvalidState() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        Ep ep = tf.ep(a);
        Lmr buf = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        Out<Psp> psp = new Out<>();
        ok(tf.dat.pspCreate(b.ia, 77, b.crEvd, 0, psp));
        ok(tf.dat.epConnect(ep, "B", 77, Dat.TIMEOUT_INFINITE, new byte[0]));
        assertEquals(Dat.EP_STATE_ACTIVE_CONNECTION_PENDING, ep.state());
        Out<Long> op = new Out<>();
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_UNCONNECTED,
                tf.dat.postSend(ep, iov(buf, 0, 64), 1, 0, op));
    }

    /** Brings a fresh endpoint on A to DISCONNECTED by connecting to a qualifier nobody listens on. */
    private static Ep disconnectedEp(TestFabric tf, TestFabric.Node a) {
        Ep ep = tf.ep(a);
        ok(tf.dat.epConnect(ep, "B", 4242, Dat.TIMEOUT_INFINITE, new byte[0]));
        tf.run();
        assertEquals(Dat.CONNECTION_EVENT_NON_PEER_REJECTED, tf.only(a.connEvd).number);
        assertEquals(Dat.EP_STATE_DISCONNECTED, ep.state());
        return ep;
    }

    @Test
    void rule42_postInDisconnectedSucceedsAndIsFlushedAtOnce() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        tf.open("B");
        Ep ep = disconnectedEp(tf, a);
        Lmr buf = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        long t = tf.sim.now() + 1_000_000;
        tf.at(t, () -> {
            tf.send(ep, iov(buf, 0, 64), 1, 0);
            tf.write(ep, iov(buf, 0, 64), 2, new RmrTriplet(0x1234, 0, 64), 0);
            tf.read(ep, iov(buf, 0, 64), 3, new RmrTriplet(0x1234, 0, 64), Dat.COMPLETION_SUPPRESS_FLAG);
        });
        tf.run();
        List<DatEvent> events = tf.drain(a.reqEvd);
        assertEquals(List.of(1L, 2L, 3L), TestFabric.cookies(events));
        assertEquals(List.of(Dat.DTO_ERR_FLUSHED, Dat.DTO_ERR_FLUSHED, Dat.DTO_ERR_FLUSHED),
                TestFabric.statuses(events));
        long cqe = t + tf.params.get(FabricParams.PCIE_LATENCY);
        for (DatEvent e : events) {
            assertEquals(cqe, e.queuedPs, "flushed with only the CQE write's delay");
            assertEquals(0, e.transferredLength);
        }
        assertEquals(List.of(), tf.events(TraceEvent.START, "A"), "nothing reached the send engine");
        assertEquals(0, ep.requestsInFlight());
    }

    @Test
    void rule40_postRecvIsAcceptedBeforeConnectAndUsedAfterwards() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        Ep epA = tf.ep(a);
        Ep epB = tf.ep(b);
        Lmr src = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        Lmr sink = tf.lmr(b, 4096, Dat.MEM_PRIV_ALL);
        assertEquals(Dat.EP_STATE_UNCONNECTED, epB.state());
        tf.recv(epB, iov(sink, 0, 128), 55);
        assertEquals(1, epB.receivesPosted());
        tf.connect(a, epA, b, epB);
        byte[] msg = randomBytes(128, 40);
        cpuWrite(a, src, 0, msg);
        tf.at(tf.sim.now() + 1_000_000, () -> tf.send(epA, iov(src, 0, 128), 1, 0));
        tf.run();
        DatEvent r = tf.only(b.recvEvd);
        assertEquals(Dat.DTO_SUCCESS, r.status);
        assertEquals(55, r.cookie);
        assertEquals(128, r.transferredLength);
        assertArrayEquals(msg, cpuRead(b, sink, 0, 128));
    }

    @Test
    void rule40_postRecvInDisconnectedIsAcceptedAndFlushed() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        tf.open("B");
        Ep ep = disconnectedEp(tf, a);
        Lmr buf = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        tf.recv(ep, iov(buf, 0, 64), 9);
        tf.run();
        DatEvent e = tf.only(a.recvEvd);
        assertEquals(Dat.DTO_ERR_FLUSHED, e.status);
        assertEquals(Dat.DTO_RECEIVE, e.operation);
        assertEquals(9, e.cookie);
        assertEquals(0, ep.receivesPosted());
    }

    @Test
    void rule12_unsignalledWithoutTheEndpointAttributeIsInvalidParameter() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr buf = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        Out<Long> op = new Out<>();
        int u = Dat.COMPLETION_UNSIGNALLED_FLAG;
        assertEquals(DatReturn.INVALID_PARAMETER, DatReturn.type(tf.dat.postSend(p.epA, iov(buf, 0, 8), 1, u, op)));
        assertEquals(DatReturn.INVALID_PARAMETER, DatReturn.type(
                tf.dat.postRdmaWrite(p.epA, iov(buf, 0, 8), 1, remote(far, 0, 8), u, op)));
        assertEquals(DatReturn.INVALID_PARAMETER, DatReturn.type(
                tf.dat.postRdmaRead(p.epA, iov(buf, 0, 8), 1, remote(far, 0, 8), u, op)));
        int ret = tf.dat.postRecv(p.epA, iov(buf, 0, 8), 1, u, op);
        assertEquals(DatReturn.INVALID_PARAMETER, DatReturn.type(ret));
        assertEquals(DatReturn.CLASS_ERROR, ret & DatReturn.CLASS_ERROR);
        tf.run();
        assertEquals(List.of(), tf.drain(p.a.reqEvd));
        assertEquals(0, p.epA.requestsInFlight());
    }

    @Test
    void rule12_unsignalledIsAcceptedWhenTheEndpointAllowsIt() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Pair p = tf.connectedPair("A", "B",
                withRequestFlags(Dat.COMPLETION_UNSIGNALLED_FLAG, 64), null);
        Lmr buf = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        tf.at(T0, () -> tf.write(p.epA, iov(buf, 0, 8), 1, remote(far, 0, 8), Dat.COMPLETION_UNSIGNALLED_FLAG));
        tf.run();
        DatEvent e = tf.only(p.a.reqEvd);
        assertEquals(Dat.DTO_SUCCESS, e.status);
        assertTrue(e.unsignalled, "an UNSIGNALLED completion is queued but is not a notification");
    }

    @Test
    void solicitedWaitIsAcceptedOnlyOnSend() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr buf = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        Out<Long> op = new Out<>();
        int s = Dat.COMPLETION_SOLICITED_WAIT_FLAG;
        assertEquals(DatReturn.INVALID_PARAMETER, DatReturn.type(
                tf.dat.postRdmaWrite(p.epA, iov(buf, 0, 8), 1, remote(far, 0, 8), s, op)));
        assertEquals(DatReturn.INVALID_PARAMETER, DatReturn.type(
                tf.dat.postRdmaRead(p.epA, iov(buf, 0, 8), 1, remote(far, 0, 8), s, op)));
        assertEquals(DatReturn.INVALID_PARAMETER, DatReturn.type(tf.dat.postRecv(p.epA, iov(buf, 0, 8), 1, s, op)));
        tf.recv(p.epB, iov(far, 0, 8), 1);
        ok(tf.dat.postSend(p.epA, iov(buf, 0, 8), 2, s, op));
        tf.run();
        assertEquals(Dat.DTO_SUCCESS, tf.only(p.a.reqEvd).status);
    }

    @Test
    void rule47_localLmrOfAnotherPzIsProtectionViolation() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Out<Pz> other = new Out<>();
        ok(tf.dat.pzCreate(p.a.ia, other));
        Lmr foreign = tf.lmr(p.a, other.get(), 4096, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        Out<Long> op = new Out<>();
        assertError(DatReturn.PROTECTION_VIOLATION, 0, tf.dat.postSend(p.epA, iov(foreign, 0, 8), 1, 0, op));
        assertError(DatReturn.PROTECTION_VIOLATION, 0,
                tf.dat.postRdmaWrite(p.epA, iov(foreign, 0, 8), 1, remote(far, 0, 8), 0, op));
        assertError(DatReturn.PROTECTION_VIOLATION, 0, tf.dat.postRecv(p.epA, iov(foreign, 0, 8), 1, 0, op));
        assertEquals(0, p.epA.requestsInFlight());
        assertEquals(0, p.epA.receivesPosted());
    }

    @Test
    void rule48_sendFromLmrWithoutLocalReadIsPrivilegesViolation() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr writeOnly = tf.lmr(p.a, 4096, Dat.MEM_PRIV_LOCAL_WRITE | Dat.MEM_PRIV_REMOTE_WRITE);
        Lmr readOnly = tf.lmr(p.a, 4096, Dat.MEM_PRIV_LOCAL_READ | Dat.MEM_PRIV_REMOTE_READ);
        Lmr far = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        Out<Long> op = new Out<>();
        assertEquals(DatReturn.PRIVILEGES_VIOLATION,
                DatReturn.type(tf.dat.postSend(p.epA, iov(writeOnly, 0, 8), 1, 0, op)));
        assertEquals(DatReturn.PRIVILEGES_VIOLATION, DatReturn.type(
                tf.dat.postRdmaWrite(p.epA, iov(writeOnly, 0, 8), 1, remote(far, 0, 8), 0, op)));
        // An RDMA Read sink and a receive buffer need LOCAL_WRITE.
        assertEquals(DatReturn.PRIVILEGES_VIOLATION, DatReturn.type(
                tf.dat.postRdmaRead(p.epA, iov(readOnly, 0, 8), 1, remote(far, 0, 8), 0, op)));
        assertEquals(DatReturn.PRIVILEGES_VIOLATION,
                DatReturn.type(tf.dat.postRecv(p.epA, iov(readOnly, 0, 8), 1, 0, op)));
        // An lmr_context nobody registered.
        LmrTriplet[] unknown = {new LmrTriplet(0x7fff_0000, writeOnly.address(), 8)};
        assertEquals(DatReturn.PRIVILEGES_VIOLATION, DatReturn.type(tf.dat.postSend(p.epA, unknown, 1, 0, op)));
        assertEquals(0, p.epA.requestsInFlight());
    }

    @Test
    void rule50_segmentOutsideItsLmrIsInvalidParameter() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr buf = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, 8192, Dat.MEM_PRIV_ALL);
        Out<Long> op = new Out<>();
        assertEquals(DatReturn.INVALID_PARAMETER, DatReturn.type(tf.dat.postSend(p.epA, iov(buf, 4000, 97), 1, 0,
                op)), "one byte past the end");
        assertEquals(DatReturn.INVALID_PARAMETER, DatReturn.type(tf.dat.postSend(p.epA,
                new LmrTriplet[] {new LmrTriplet(buf.lmrContext(), buf.address() - 1, 8)}, 1, 0, op)),
                "one byte before the start");
        assertEquals(DatReturn.INVALID_PARAMETER, DatReturn.type(tf.dat.postRdmaWrite(p.epA, iov(buf, 0, 5000), 1,
                remote(far, 0, 5000), 0, op)));
        assertEquals(DatReturn.INVALID_PARAMETER, DatReturn.type(tf.dat.postRecv(p.epA, iov(buf, 4095, 2), 1, 0,
                op)));
        ok(tf.dat.postSend(p.epA, iov(buf, 4000, 96), 1, 0, op));
    }

    @Test
    void rule50_rdmaWithLocalAndRemoteLengthsThatDifferIsLengthError() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr buf = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        Out<Long> op = new Out<>();
        assertError(DatReturn.LENGTH_ERROR, 0,
                tf.dat.postRdmaWrite(p.epA, iov(buf, 0, 100), 1, remote(far, 0, 101), 0, op));
        assertError(DatReturn.LENGTH_ERROR, 0,
                tf.dat.postRdmaRead(p.epA, iov(buf, 0, 100), 1, remote(far, 0, 99), 0, op));
        LmrTriplet[] two = {seg(buf, 0, 60), seg(buf, 100, 40)};
        ok(tf.dat.postRdmaWrite(p.epA, two, 1, remote(far, 0, 100), 0, op));
        assertEquals(1, p.epA.requestsInFlight());
    }

    @Test
    void moreThanMaxRequestDtosOutstandingIsInsufficientResources() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Pair p = tf.connectedPair("A", "B", withRequestFlags(Dat.COMPLETION_DEFAULT_FLAG, 2), null);
        Lmr buf = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        int[] third = new int[1];
        tf.at(T0, () -> {
            tf.write(p.epA, iov(buf, 0, 8), 1, remote(far, 0, 8), 0);
            tf.read(p.epA, iov(buf, 8, 8), 2, remote(far, 8, 8), 0);
            third[0] = tf.dat.postRdmaWrite(p.epA, iov(buf, 16, 8), 3, remote(far, 16, 8), 0, new Out<>());
        });
        tf.run();
        assertError(DatReturn.INSUFFICIENT_RESOURCES, DatReturn.SUB_RESOURCE_MEMORY, third[0]);
        assertEquals(List.of(1L, 2L), TestFabric.cookies(tf.drain(p.a.reqEvd)));
        // Once the completions are in, the queue has room again.
        tf.at(tf.sim.now() + 1_000_000, () -> tf.write(p.epA, iov(buf, 16, 8), 4, remote(far, 16, 8), 0));
        tf.run();
        assertEquals(Dat.DTO_SUCCESS, tf.only(p.a.reqEvd).status);
    }

    @Test
    void rule10_suppressHidesOnlySuccessfulCompletions() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr buf = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        cpuWrite(p.a, buf, 0, randomBytes(64, 10));
        int sup = Dat.COMPLETION_SUPPRESS_FLAG;
        long[] ops = new long[3];
        tf.at(T0, () -> {
            ops[0] = tf.write(p.epA, iov(buf, 0, 64), 1, remote(far, 0, 64), sup);
            ops[1] = tf.write(p.epA, iov(buf, 0, 64), 2, remote(far, 64, 64), 0);
        });
        tf.run();
        List<DatEvent> events = tf.drain(p.a.reqEvd);
        assertEquals(List.of(2L), TestFabric.cookies(events), "the suppressed success produced no event");
        assertEquals(Boolean.TRUE, tf.event(TraceEvent.COMPLETE, "A", ops[0]).attrs().get("suppressed"));
        assertArrayEquals(cpuRead(p.a, buf, 0, 64), cpuRead(p.b, far, 0, 64), "the suppressed write happened");
        assertEquals(0, p.epA.requestsInFlight());

        // A failing suppressed write (bad rmr_context) still reports its error, and so do the flushed ones.
        tf.at(tf.sim.now() + 1_000_000, () -> {
            ops[2] = tf.write(p.epA, iov(buf, 0, 64), 3, new RmrTriplet(far.rmrContext() + 1, far.address(), 64),
                    sup);
            tf.write(p.epA, iov(buf, 0, 64), 4, remote(far, 0, 64), sup);
        });
        tf.run();
        List<DatEvent> failed = tf.drain(p.a.reqEvd);
        assertEquals(List.of(3L, 4L), TestFabric.cookies(failed));
        assertEquals(List.of(Dat.DTO_ERR_REMOTE_ACCESS, Dat.DTO_ERR_FLUSHED), TestFabric.statuses(failed));
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, tf.only(p.a.connEvd).number);
    }

    @Test
    void rule16_suppressInRecvCompletionFlagsIsRejectedAtEpCreate() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        EpAttributes d = EpAttributes.defaults();
        EpAttributes suppressRecv = new EpAttributes(d.maxMessageSize(), d.maxRdmaSize(), d.maxRecvDtos(),
                d.maxRequestDtos(), d.maxRecvIov(), d.maxRequestIov(), d.requestCompletionFlags(),
                Dat.COMPLETION_SUPPRESS_FLAG);
        Out<Ep> ep = new Out<>();
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG6,
                tf.dat.epCreate(a.ia, a.pz, a.recvEvd, a.reqEvd, a.connEvd, suppressRecv, ep));
        assertNull(ep.get());
    }

    @Test
    void endpointAttributesBeyondTheIaLimitsAreInvalidParameter() {
        TestFabric tf = TestFabric.backToBack("ia.max_dto_per_ep", "128", "ia.max_iov_segments", "8");
        TestFabric.Node a = tf.open("A");
        EpAttributes d = EpAttributes.defaults();
        Out<Ep> ep = new Out<>();
        EpAttributes tooDeep = new EpAttributes(d.maxMessageSize(), d.maxRdmaSize(), 129, 64, 4, 4, 0, 0);
        EpAttributes tooWide = new EpAttributes(d.maxMessageSize(), d.maxRdmaSize(), 64, 64, 4, 9, 0, 0);
        EpAttributes atLimit = new EpAttributes(d.maxMessageSize(), d.maxRdmaSize(), 128, 128, 8, 8, 0, 0);
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG6,
                tf.dat.epCreate(a.ia, a.pz, a.recvEvd, a.reqEvd, a.connEvd, tooDeep, ep));
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG6,
                tf.dat.epCreate(a.ia, a.pz, a.recvEvd, a.reqEvd, a.connEvd, tooWide, ep));
        ok(tf.dat.epCreate(a.ia, a.pz, a.recvEvd, a.reqEvd, a.connEvd, atLimit, ep));
        Lmr buf = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        LmrTriplet[] nine = new LmrTriplet[9];
        for (int i = 0; i < 9; i++) {
            nine[i] = seg(buf, i * 8L, 8);
        }
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2,
                tf.dat.postRecv(ep.get(), nine, 1, 0, new Out<>()));
        ok(tf.dat.postRecv(ep.get(), Arrays.copyOf(nine, 8), 1, 0, new Out<>()));
    }
}

package org.datsim.fabric.dat;

import static org.datsim.fabric.TestFabric.cpuRead;
import static org.datsim.fabric.TestFabric.cpuWrite;
import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.randomBytes;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.datsim.core.param.Params;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.TestFabric;
import org.junit.jupiter.api.Test;

/**
 * Errors that break a connection (rules 25, 37, 39, 44, 48): a remote access violation, a Send longer than the
 * matched receive, and a Send that finds no receive until the RNR retries run out. The failing operation completes
 * with its status, every later outstanding operation and posted receive is flushed, the endpoint goes to
 * DISCONNECTED and the connect EVD gets DAT_CONNECTION_EVENT_BROKEN. With infinite RNR retry the Send waits instead.
 */
class BrokenConnectionTest {

    private static final long T0 = 100_000_000L;

    /** Posts a failing RDMA Write (built by {@code target}) then two more DTOs, and checks the flush and break. */
    private static void assertWriteBreaksConnection(TestFabric.Pair p, Lmr src, RmrTriplet badTarget, Lmr dst) {
        TestFabric tf = p.tf;
        Lmr recvBuf = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr peerRecv = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        tf.recv(p.epA, iov(recvBuf, 0, 64), 900);
        tf.recv(p.epA, iov(recvBuf, 64, 64), 901);
        tf.recv(p.epB, iov(peerRecv, 0, 64), 950);
        tf.at(T0, () -> {
            tf.write(p.epA, iov(src, 0, 1024), 1, badTarget, 0);
            tf.write(p.epA, iov(src, 0, 1024), 2, remote(dst, 0, 1024), 0);
            tf.send(p.epA, iov(src, 0, 64), 3, 0);
        });
        tf.run();

        List<DatEvent> req = tf.drain(p.a.reqEvd);
        assertEquals(List.of(1L, 2L, 3L), TestFabric.cookies(req), TestFabric.describe(req));
        assertEquals(List.of(Dat.DTO_ERR_REMOTE_ACCESS, Dat.DTO_ERR_FLUSHED, Dat.DTO_ERR_FLUSHED),
                TestFabric.statuses(req));
        assertEquals(0, req.get(0).transferredLength, "transfered_length is 0 for a failed DTO");
        List<DatEvent> recv = tf.drain(p.a.recvEvd);
        assertEquals(List.of(900L, 901L), TestFabric.cookies(recv));
        assertEquals(List.of(Dat.DTO_ERR_FLUSHED, Dat.DTO_ERR_FLUSHED), TestFabric.statuses(recv));

        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
        DatEvent broken = tf.only(p.a.connEvd);
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, broken.number);
        assertEquals(p.epA, broken.ep);
        // The responder's queue pair broke too (rule 25: "the connection breaks").
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epB.state());
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, tf.only(p.b.connEvd).number);
        assertEquals(List.of(Dat.DTO_ERR_FLUSHED), TestFabric.statuses(tf.drain(p.b.recvEvd)));
        assertArrayEquals(new byte[1024], cpuRead(p.b, dst, 0, 1024), "nothing was placed at the target");
        assertEquals(0, p.epA.requestsInFlight());
        assertEquals(0, p.epA.receivesPosted());

        // Later posts are accepted and flushed at once (rules 42, 44).
        long[] t = new long[1];
        tf.at(tf.sim.now() + 1_000_000, () -> {
            t[0] = tf.sim.now();
            tf.write(p.epA, iov(src, 0, 8), 4, remote(dst, 0, 8), 0);
        });
        tf.run();
        DatEvent late = tf.only(p.a.reqEvd);
        assertEquals(Dat.DTO_ERR_FLUSHED, late.status);
        assertEquals(t[0] + tf.params.get(FabricParams.PCIE_LATENCY), late.queuedPs);
    }

    /**
     * The time between two RNR NAKs of one Send of {@code bytes} (one packet) on a back-to-back link: the RNR timer,
     * then the send engine's WQE and payload DMA, the packet's wire time and propagation, then the NAK's wire time
     * and propagation back.
     */
    private static long rnrRetryPeriod(TestFabric tf, long bytes) {
        Params p = tf.params;
        long pcie = p.get(FabricParams.PCIE_LATENCY);
        long header = p.get(FabricParams.LINK_HEADER_BYTES);
        return p.get(FabricParams.RNR_TIMER)
                + p.get(FabricParams.HCA_WQE_PROCESS) + 2 * pcie
                + p.rate(FabricParams.PCIE_BANDWIDTH).transmitTimePs(p.get(FabricParams.HCA_WQE_BYTES))
                + 2 * pcie + p.rate(FabricParams.PCIE_BANDWIDTH).transmitTimePs(bytes)
                + p.rate(FabricParams.LINK_BANDWIDTH).transmitTimePs(header + bytes)
                + p.get(FabricParams.LINK_LATENCY)
                + p.rate(FabricParams.LINK_BANDWIDTH).transmitTimePs(header + p.get(FabricParams.LINK_AETH_BYTES))
                + p.get(FabricParams.LINK_LATENCY);
    }

    @Test
    void rule25_rule44_writeWithBadRmrContextFailsWithRemoteAccessAndFlushesTheRest() {
        TestFabric.Pair p = TestFabric.pair();
        Lmr src = p.tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = p.tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        cpuWrite(p.a, src, 0, randomBytes(1024, 5));
        RmrTriplet bad = new RmrTriplet(dst.rmrContext() ^ 0x5a5a, dst.address(), 1024);
        assertWriteBreaksConnection(p, src, bad, dst);
    }

    @Test
    void rule48_writeToLmrWithoutRemoteWriteFailsWithRemoteAccess() {
        TestFabric.Pair p = TestFabric.pair();
        Lmr src = p.tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        int noRemoteWrite = Dat.MEM_PRIV_LOCAL_READ | Dat.MEM_PRIV_LOCAL_WRITE | Dat.MEM_PRIV_REMOTE_READ;
        Lmr dst = p.tf.lmr(p.b, 4096, noRemoteWrite);
        cpuWrite(p.a, src, 0, randomBytes(1024, 6));
        assertWriteBreaksConnection(p, src, remote(dst, 0, 1024), dst);
    }

    @Test
    void rule48_writeBeyondTheRemoteLmrFailsWithRemoteAccess() {
        TestFabric.Pair p = TestFabric.pair();
        Lmr src = p.tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = p.tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        cpuWrite(p.a, src, 0, randomBytes(1024, 7));
        assertWriteBreaksConnection(p, src, remote(dst, 4096 - 1000, 1024), dst);
    }

    @Test
    void rule47_writeToAnRmrContextOfAnotherPzFailsWithRemoteAccess() {
        TestFabric.Pair p = TestFabric.pair();
        Lmr src = p.tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Out<Pz> otherPz = new Out<>();
        TestFabric.ok(p.tf.dat.pzCreate(p.b.ia, otherPz));
        Lmr dst = p.tf.lmr(p.b, otherPz.get(), 4096, Dat.MEM_PRIV_ALL);
        cpuWrite(p.a, src, 0, randomBytes(1024, 12));
        assertWriteBreaksConnection(p, src, remote(dst, 0, 1024), dst);
    }

    @Test
    void rule48_readFromLmrWithoutRemoteReadFailsWithRemoteAccess() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr sink = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr source = tf.lmr(p.b, 4096, Dat.MEM_PRIV_LOCAL_READ | Dat.MEM_PRIV_LOCAL_WRITE
                | Dat.MEM_PRIV_REMOTE_WRITE);
        cpuWrite(p.b, source, 0, randomBytes(512, 8));
        tf.at(T0, () -> {
            tf.read(p.epA, iov(sink, 0, 512), 1, remote(source, 0, 512), 0);
            tf.read(p.epA, iov(sink, 512, 512), 2, remote(source, 0, 512), 0);
        });
        tf.run();
        assertEquals(List.of(Dat.DTO_ERR_REMOTE_ACCESS, Dat.DTO_ERR_FLUSHED),
                TestFabric.statuses(tf.drain(p.a.reqEvd)));
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, tf.only(p.a.connEvd).number);
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
        assertArrayEquals(new byte[1024], cpuRead(p.a, sink, 0, 1024), "nothing was read");
    }

    @Test
    void rule37_sendLongerThanTheReceiveFailsWithLocalLengthAtTheReceiver() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr sink = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        cpuWrite(p.a, src, 0, randomBytes(200, 9));
        tf.recv(p.epB, iov(sink, 0, 100), 10);
        tf.recv(p.epB, iov(sink, 100, 1000), 11);
        tf.at(T0, () -> tf.send(p.epA, iov(src, 0, 200), 1, 0));
        tf.run();

        List<DatEvent> recv = tf.drain(p.b.recvEvd);
        assertEquals(List.of(10L, 11L), TestFabric.cookies(recv));
        assertEquals(List.of(Dat.DTO_ERR_LOCAL_LENGTH, Dat.DTO_ERR_FLUSHED), TestFabric.statuses(recv));
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epB.state());
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, tf.only(p.b.connEvd).number);

        DatEvent send = tf.only(p.a.reqEvd);
        assertEquals(Dat.DTO_ERR_REMOTE_RESPONDER, send.status, "the requester's Send failed with its own error");
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, tf.only(p.a.connEvd).number);
    }

    @Test
    void rule37_theRequesterOfASendLongerThanTheReceiveGetsRemoteResponderFromTheInvalidRequestNak() {
        // IB answers a length error with a NAK-Invalid Request: the requester's work completion is
        // IBV_WC_REM_INV_REQ_ERR, which dapl's openib_common/cq.c reports as DAT_DTO_ERR_REMOTE_RESPONDER (not
        // DAT_DTO_ERR_TRANSPORT, the status of retries run out); a later Send is flushed.
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr sink = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        tf.recv(p.epB, iov(sink, 0, 64), 10);
        tf.at(T0, () -> {
            tf.send(p.epA, iov(src, 0, 65), 1, 0);
            tf.send(p.epA, iov(src, 0, 8), 2, 0);
        });
        tf.run();
        List<DatEvent> req = tf.drain(p.a.reqEvd);
        assertEquals(List.of(1L, 2L), TestFabric.cookies(req));
        assertEquals(List.of(Dat.DTO_ERR_REMOTE_RESPONDER, Dat.DTO_ERR_FLUSHED), TestFabric.statuses(req));
        assertEquals(Dat.DTO_ERR_LOCAL_LENGTH, tf.only(p.b.recvEvd).status);
        TraceEvent failed = tf.event(TraceEvent.COMPLETE, "A", req.get(0).opId);
        assertEquals("DAT_DTO_ERR_REMOTE_RESPONDER", failed.status());
    }

    @Test
    void rule44_aWriteReachingAnEndpointAlreadyFlushedIsNakdAsARemoteOperationalErrorReportedAsRemoteResponder() {
        // B disconnects abruptly (its queue pair flushed) just as A posts a Write; the Write reaches B before B's
        // DREQ, slowed by cm.processing, reaches A. The model's responder answers it with a NAK-Remote Operational
        // Error, IBV_WC_REM_OP_ERR at A, which dapl's cq.c reports as DAT_DTO_ERR_REMOTE_RESPONDER. (A real
        // responder in the error state may drop the request silently instead; the requester would then retry until
        // the DREQ flushes it, or until DAT_DTO_ERR_TRANSPORT.)
        TestFabric.Pair p = TestFabric.pair("cm.processing", "50us");
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        tf.at(tf.sim.now() + 1_000_000, () -> {
            TestFabric.ok(tf.dat.epDisconnect(p.epB, Dat.CLOSE_ABRUPT_FLAG));
            tf.write(p.epA, iov(src, 0, 64), 1, remote(far, 0, 64), 0);
        });
        tf.run();
        DatEvent w = tf.only(p.a.reqEvd);
        assertEquals(Dat.DTO_ERR_REMOTE_RESPONDER, w.status, TestFabric.describe(List.of(w)));
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
    }

    @Test
    void rule39_sendWithoutReceiveFailsWithReceiverNotReadyWhenRetriesRunOut() {
        TestFabric.Pair p = TestFabric.pair("transport.rnr_retry", "1", "transport.rnr_timer", "10us");
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        Lmr recvBuf = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        tf.recv(p.epA, iov(recvBuf, 0, 64), 77);
        tf.at(T0, () -> {
            tf.send(p.epA, iov(src, 0, 64), 1, 0);
            tf.write(p.epA, iov(src, 0, 64), 2, remote(dst, 0, 64), 0);
        });
        tf.run();

        List<DatEvent> req = tf.drain(p.a.reqEvd);
        assertEquals(List.of(1L, 2L), TestFabric.cookies(req));
        assertEquals(Dat.DTO_ERR_RECEIVER_NOT_READY, req.get(0).status);
        assertEquals(Dat.DTO_SEND, req.get(0).operation);
        assertEquals(Dat.DTO_ERR_FLUSHED, req.get(1).status,
                "the Write posted after the failed Send is flushed: " + TestFabric.describe(req));
        assertEquals(List.of(Dat.DTO_ERR_FLUSHED), TestFabric.statuses(tf.drain(p.a.recvEvd)));
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, tf.only(p.a.connEvd).number);
        // One try and one retry: two RNR NAKs, and the Send failed no earlier than one RNR timer after the first.
        List<TraceEvent> naks = tf.events("rnr_nak", "B");
        assertEquals(2, naks.size());
        assertEquals(rnrRetryPeriod(tf, 64), naks.get(1).tPs() - naks.get(0).tPs());
        assertTrue(req.get(0).queuedPs > naks.get(1).tPs());
    }

    @Test
    void rule39_sendWithInfiniteRnrRetryWaitsForALateReceiveAndSucceeds() {
        TestFabric.Pair p = TestFabric.pair("transport.rnr_retry", "7", "transport.rnr_timer", "10us");
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr sink = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        byte[] msg = randomBytes(300, 10);
        cpuWrite(p.a, src, 0, msg);
        long late = T0 + 95_000_000L; // 95 us later: several RNR timer periods
        long[] recvOp = new long[1];
        tf.at(T0, () -> tf.send(p.epA, iov(src, 0, 300), 1, 0));
        tf.at(late, () -> recvOp[0] = tf.recv(p.epB, iov(sink, 0, 4096), 2));
        tf.run();

        DatEvent send = tf.only(p.a.reqEvd);
        assertEquals(Dat.DTO_SUCCESS, send.status);
        assertEquals(300, send.transferredLength);
        assertTrue(send.queuedPs > late);
        DatEvent recv = tf.only(p.b.recvEvd);
        assertEquals(Dat.DTO_SUCCESS, recv.status);
        assertEquals(300, recv.transferredLength);
        assertArrayEquals(msg, cpuRead(p.b, sink, 0, 300));
        assertEquals(Dat.EP_STATE_CONNECTED, p.epA.state());
        assertEquals(Dat.EP_STATE_CONNECTED, p.epB.state());
        assertEquals(List.of(), tf.drain(p.a.connEvd));
        // Each retry costs the RNR timer plus the whole requester pipeline and a round trip.
        List<TraceEvent> naks = tf.events("rnr_nak", "B");
        long period = rnrRetryPeriod(tf, 300);
        long lastNak = 0;
        for (int i = 1; i < naks.size(); i++) {
            assertEquals(period, naks.get(i).tPs() - naks.get(i - 1).tPs(), "spacing of RNR NAK " + i);
            lastNak = naks.get(i).tPs();
        }
        assertEquals(1 + (late - naks.get(0).tPs()) / period, naks.size());
        assertTrue(lastNak < late);
    }
}

package org.datsim.fabric.dat;

import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.TestFabric;
import org.junit.jupiter.api.Test;

/**
 * Completion order within one endpoint's request stream (rule 2): completions are reported in posting order, so a
 * small Send that finishes on the wire before an earlier large RDMA Read is reported after the Read; and a mix of
 * operations comes out of the request EVD in the order it was posted.
 */
class CompletionOrderTest {

    private static final long T0 = 100_000_000L;

    @Test
    void rule2_sendCompletionIsHeldBehindAnEarlierLargeRead() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        int big = 1 << 20;
        Lmr sink = tf.lmr(p.a, big, Dat.MEM_PRIV_ALL);
        Lmr source = tf.lmr(p.b, big, Dat.MEM_PRIV_ALL);
        Lmr msg = tf.lmr(p.a, 64, Dat.MEM_PRIV_ALL);
        Lmr msgSink = tf.lmr(p.b, 64, Dat.MEM_PRIV_ALL);
        tf.recv(p.epB, iov(msgSink, 0, 64), 500);
        long[] ops = new long[2];
        tf.at(T0, () -> {
            ops[0] = tf.read(p.epA, iov(sink, 0, big), 1, remote(source, 0, big), 0);
            ops[1] = tf.send(p.epA, iov(msg, 0, 64), 2, 0);
        });
        tf.run();

        // The Send really finished first: its data was placed at B before the Read's data was placed at A.
        long sendPlaced = tf.event(TraceEvent.PLACE, "B", ops[1]).tPs();
        long readPlaced = tf.event(TraceEvent.PLACE, "A", ops[0]).tPs();
        assertTrue(sendPlaced < readPlaced, "send placed at " + sendPlaced + ", read at " + readPlaced);

        List<TraceEvent> completes = tf.events(TraceEvent.COMPLETE, "A");
        assertEquals(2, completes.size());
        assertEquals(ops[0], completes.get(0).op());
        assertEquals(ops[1], completes.get(1).op());
        assertTrue(completes.get(1).tPs() >= completes.get(0).tPs());
        assertTrue(completes.get(1).tPs() > readPlaced);

        List<DatEvent> events = tf.drain(p.a.reqEvd);
        assertEquals(List.of(1L, 2L), TestFabric.cookies(events));
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_SUCCESS), TestFabric.statuses(events));
        assertEquals(Dat.DTO_RDMA_READ, events.get(0).operation);
        assertEquals(Dat.DTO_SEND, events.get(1).operation);
        assertEquals(big, events.get(0).transferredLength);
        assertEquals(64, events.get(1).transferredLength);
        assertEquals(Dat.DTO_SUCCESS, tf.only(p.b.recvEvd).status);
    }

    @Test
    void rule2_completionsOfOneEndpointComeOutInPostingOrder() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr local = tf.lmr(p.a, 1 << 20, Dat.MEM_PRIV_ALL);
        Lmr far = tf.lmr(p.b, 1 << 20, Dat.MEM_PRIV_ALL);
        for (int i = 0; i < 3; i++) {
            tf.recv(p.epB, iov(far, 900_000 + i * 100, 100), 900 + i);
        }
        int[] sizes = {300_000, 8, 100_000, 100, 50, 4096, 200_000, 1};
        tf.at(T0, () -> {
            long off = 0;
            int sends = 0;
            for (int i = 0; i < sizes.length; i++) {
                int n = sizes[i];
                switch (i % 3) {
                    case 0:
                        tf.read(p.epA, iov(local, off, n), i, remote(far, off, n), 0);
                        break;
                    case 1:
                        if (sends++ < 3) {
                            tf.send(p.epA, iov(local, off, n), i, 0);
                            break;
                        }
                        tf.write(p.epA, iov(local, off, n), i, remote(far, off, n), 0);
                        break;
                    default:
                        tf.write(p.epA, iov(local, off, n), i, remote(far, off, n), 0);
                        break;
                }
                off += n;
            }
        });
        tf.run();
        List<DatEvent> events = tf.drain(p.a.reqEvd);
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L), TestFabric.cookies(events));
        for (int i = 0; i < sizes.length; i++) {
            assertEquals(Dat.DTO_SUCCESS, events.get(i).status);
            assertEquals(sizes[i], events.get(i).transferredLength);
            if (i > 0) {
                assertTrue(events.get(i).queuedPs >= events.get(i - 1).queuedPs);
            }
        }
        assertEquals(List.of(900L, 901L, 902L), TestFabric.cookies(tf.drain(p.b.recvEvd)));
    }

    @Test
    void rule2_receiveCompletionsStayInPostingOrderWhenALaterReceiveFails() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        int big = 40 * 1024;
        Lmr src = tf.lmr(p.a, big, Dat.MEM_PRIV_ALL);
        Lmr sink = tf.lmr(p.b, big + 4096, Dat.MEM_PRIV_ALL);
        tf.recv(p.epB, iov(sink, 0, big), 1);
        tf.recv(p.epB, iov(sink, big, 16), 2);
        tf.recv(p.epB, iov(sink, big + 16, 16), 3);
        // The ten-packet Send backs up the link, so the too-long second Send arrives right behind its last
        // packet, while the first message is still being placed.
        tf.at(T0, () -> {
            tf.send(p.epA, iov(src, 0, big), 11, 0);
            tf.send(p.epA, iov(src, 0, 64), 12, 0);
        });
        tf.run();
        List<DatEvent> recvs = tf.drain(p.b.recvEvd);
        assertEquals(List.of(1L, 2L, 3L), TestFabric.cookies(recvs), TestFabric.describe(recvs));
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_ERR_LOCAL_LENGTH, Dat.DTO_ERR_FLUSHED),
                TestFabric.statuses(recvs));
        assertEquals(big, recvs.get(0).transferredLength);
        assertTrue(recvs.get(0).queuedPs <= recvs.get(1).queuedPs);
        assertEquals(Dat.DTO_SUCCESS, tf.drain(p.a.reqEvd).get(0).status);
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, tf.only(p.b.connEvd).number);
    }

    @Test
    void rule2_receiveCompletionsStayInPostingOrderWhenFlushedDuringPlacement() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr sink = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        long first = tf.recv(p.epB, iov(sink, 0, 64), 1);
        tf.recv(p.epB, iov(sink, 64, 64), 2);
        // First find when the Send's packet arrives at B: one PCIe latency before it is placed.
        long[] sendOp = new long[1];
        tf.at(T0, () -> sendOp[0] = tf.send(p.epA, iov(src, 0, 64), 11, 0));
        tf.run();
        long placed = tf.event(TraceEvent.PLACE, "B", sendOp[0]).tPs();
        assertEquals(first, (long) tf.event(TraceEvent.PLACE, "B", sendOp[0]).attrs().get("recv_op"));
        long arrival = placed - tf.params.get(FabricParams.PCIE_LATENCY);
        assertEquals(List.of(1L), TestFabric.cookies(tf.drain(p.b.recvEvd)));

        // The same on a fresh pair, now with B's abrupt disconnect inside that placement window.
        TestFabric.Pair q = TestFabric.pair();
        TestFabric tq = q.tf;
        Lmr src2 = tq.lmr(q.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr sink2 = tq.lmr(q.b, 4096, Dat.MEM_PRIV_ALL);
        tq.recv(q.epB, iov(sink2, 0, 64), 1);
        tq.recv(q.epB, iov(sink2, 64, 64), 2);
        tq.at(T0, () -> tq.send(q.epA, iov(src2, 0, 64), 11, 0));
        tq.at(arrival + 1, () -> TestFabric.ok(tq.dat.epDisconnect(q.epB, Dat.CLOSE_ABRUPT_FLAG)));
        tq.run();
        List<DatEvent> recvs = tq.drain(q.b.recvEvd);
        assertEquals(List.of(1L, 2L), TestFabric.cookies(recvs), TestFabric.describe(recvs));
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_ERR_FLUSHED), TestFabric.statuses(recvs));
    }
}

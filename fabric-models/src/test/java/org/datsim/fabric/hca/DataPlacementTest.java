package org.datsim.fabric.hca;

import static org.datsim.fabric.TestFabric.cpuRead;
import static org.datsim.fabric.TestFabric.cpuWrite;
import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.randomBytes;
import static org.datsim.fabric.TestFabric.remote;
import static org.datsim.fabric.TestFabric.seg;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.Arrays;
import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.dat.LmrTriplet;
import org.junit.jupiter.api.Test;

/**
 * Byte-exact data movement: RDMA Write from CPU-written source memory to the target, RDMA Read of remote bytes into
 * a local sink, Send scattered into a multi-segment receive IOV (rule 36), a gather list on the sending side, and
 * the visibility of RDMA-written bytes when a later Send's receive completes (rule 38).
 */
class DataPlacementTest {

    private static final long T0 = 100_000_000L;

    @Test
    void rdmaWriteDeliversCpuWrittenBytesExactly() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        int len = 9_999;
        Lmr src = tf.lmr(p.a, 20_000, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 20_000, Dat.MEM_PRIV_ALL);
        byte[] data = randomBytes(len, 11);
        cpuWrite(p.a, src, 123, data);
        tf.at(T0, () -> tf.write(p.epA, iov(src, 123, len), 1, remote(dst, 4_001, len), 0));
        tf.run();
        assertEquals(Dat.DTO_SUCCESS, tf.only(p.a.reqEvd).status);
        assertArrayEquals(data, cpuRead(p.b, dst, 4_001, len));
        assertArrayEquals(new byte[4_001], cpuRead(p.b, dst, 0, 4_001));
        assertArrayEquals(new byte[20_000 - 4_001 - len], cpuRead(p.b, dst, 4_001 + len, 20_000 - 4_001 - len));
    }

    @Test
    void rdmaWriteGathersSeveralLocalSegmentsInOrder() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 8192, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 8192, Dat.MEM_PRIV_ALL);
        byte[] one = randomBytes(300, 1);
        byte[] two = randomBytes(5000, 2);
        byte[] three = randomBytes(7, 3);
        cpuWrite(p.a, src, 0, one);
        cpuWrite(p.a, src, 1000, two);
        cpuWrite(p.a, src, 7000, three);
        LmrTriplet[] gather = {seg(src, 7000, 7), seg(src, 0, 300), seg(src, 1000, 5000)};
        tf.at(T0, () -> tf.write(p.epA, gather, 1, remote(dst, 0, 5307), 0));
        tf.run();
        assertEquals(5307, tf.only(p.a.reqEvd).transferredLength);
        byte[] expected = new byte[5307];
        System.arraycopy(three, 0, expected, 0, 7);
        System.arraycopy(one, 0, expected, 7, 300);
        System.arraycopy(two, 0, expected, 307, 5000);
        assertArrayEquals(expected, cpuRead(p.b, dst, 0, 5307));
    }

    @Test
    void rdmaReadBringsRemoteBytesIntoTheLocalSink() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        int len = 12_345;
        Lmr sink = tf.lmr(p.a, 16_384, Dat.MEM_PRIV_ALL);
        Lmr source = tf.lmr(p.b, 16_384, Dat.MEM_PRIV_ALL);
        byte[] data = randomBytes(len, 21);
        cpuWrite(p.b, source, 17, data);
        long[] op = new long[1];
        tf.at(T0, () -> op[0] = tf.read(p.epA, iov(sink, 1000, len), 9, remote(source, 17, len), 0));
        tf.run();
        DatEvent e = tf.only(p.a.reqEvd);
        assertEquals(Dat.DTO_SUCCESS, e.status);
        assertEquals(Dat.DTO_RDMA_READ, e.operation);
        assertEquals(len, e.transferredLength);
        assertEquals(9, e.cookie);
        assertArrayEquals(data, cpuRead(p.a, sink, 1000, len));
        assertArrayEquals(new byte[1000], cpuRead(p.a, sink, 0, 1000));
        assertArrayEquals(new byte[16_384 - 1000 - len], cpuRead(p.a, sink, 1000 + len, 16_384 - 1000 - len));
        assertEquals((long) len, tf.event(TraceEvent.PLACE, "A", op[0]).attrs().get("bytes"));
        assertArrayEquals(data, cpuRead(p.b, source, 17, len), "the source is unchanged");
    }

    @Test
    void rule36_sendFillsLeadingReceiveSegmentsAndLeavesLaterOnesUntouched() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr sink = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        byte[] sentinel = new byte[4096];
        Arrays.fill(sentinel, (byte) 0xEE);
        cpuWrite(p.b, sink, 0, sentinel);
        byte[] msg = new byte[250];
        for (int i = 0; i < msg.length; i++) {
            msg[i] = (byte) i;
        }
        cpuWrite(p.a, src, 0, msg);
        // Receive IOV: 100 B at 0, 200 B at 1000, 300 B at 2000; the 250 B message fills the first, half of the
        // second (150 B), and none of the third.
        LmrTriplet[] scatter = {seg(sink, 0, 100), seg(sink, 1000, 200), seg(sink, 2000, 300)};
        tf.recv(p.epB, scatter, 42);
        tf.at(T0, () -> tf.send(p.epA, iov(src, 0, 250), 7, 0));
        tf.run();

        DatEvent r = tf.only(p.b.recvEvd);
        assertEquals(Dat.DTO_SUCCESS, r.status);
        assertEquals(Dat.DTO_RECEIVE, r.operation);
        assertEquals(250, r.transferredLength);
        assertEquals(42, r.cookie);
        assertEquals(Dat.DTO_SUCCESS, tf.only(p.a.reqEvd).status);

        assertArrayEquals(Arrays.copyOfRange(msg, 0, 100), cpuRead(p.b, sink, 0, 100));
        assertArrayEquals(Arrays.copyOfRange(msg, 100, 250), cpuRead(p.b, sink, 1000, 150));
        byte[] ee50 = new byte[50];
        Arrays.fill(ee50, (byte) 0xEE);
        assertArrayEquals(ee50, cpuRead(p.b, sink, 1150, 50), "rest of the partly filled segment untouched");
        byte[] ee300 = new byte[300];
        Arrays.fill(ee300, (byte) 0xEE);
        assertArrayEquals(ee300, cpuRead(p.b, sink, 2000, 300), "later segment untouched");
        assertArrayEquals(Arrays.copyOfRange(sentinel, 100, 1000), cpuRead(p.b, sink, 100, 900),
                "memory between segments untouched");
    }

    @Test
    void rule36_sendsConsumeReceivesInPostingOrder() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr sink = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        byte[] m1 = randomBytes(64, 1);
        byte[] m2 = randomBytes(64, 2);
        byte[] m3 = randomBytes(64, 3);
        cpuWrite(p.a, src, 0, m1);
        cpuWrite(p.a, src, 64, m2);
        cpuWrite(p.a, src, 128, m3);
        tf.recv(p.epB, iov(sink, 0, 64), 100);
        tf.recv(p.epB, iov(sink, 1024, 64), 101);
        tf.recv(p.epB, iov(sink, 2048, 64), 102);
        tf.at(T0, () -> {
            tf.send(p.epA, iov(src, 0, 64), 1, 0);
            tf.send(p.epA, iov(src, 64, 64), 2, 0);
            tf.send(p.epA, iov(src, 128, 64), 3, 0);
        });
        tf.run();
        List<DatEvent> recvs = tf.drain(p.b.recvEvd);
        assertEquals(List.of(100L, 101L, 102L), TestFabric.cookies(recvs));
        assertEquals(List.of(0, 0, 0), TestFabric.statuses(recvs));
        assertArrayEquals(m1, cpuRead(p.b, sink, 0, 64));
        assertArrayEquals(m2, cpuRead(p.b, sink, 1024, 64));
        assertArrayEquals(m3, cpuRead(p.b, sink, 2048, 64));
    }

    @Test
    void rule38_sendAfterWriteSeesWrittenBytes() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        int len = 64 * 1024;
        Lmr src = tf.lmr(p.a, len, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, len, Dat.MEM_PRIV_ALL);
        Lmr msgSrc = tf.lmr(p.a, 64, Dat.MEM_PRIV_ALL);
        Lmr msgSink = tf.lmr(p.b, 64, Dat.MEM_PRIV_ALL);
        byte[] data = randomBytes(len, 38);
        cpuWrite(p.a, src, 0, data);
        long recvOp = tf.recv(p.epB, iov(msgSink, 0, 64), 1);
        // Snapshot B's target memory at the very moment the receive completes.
        byte[][] seen = new byte[1][];
        tf.fabric.trace().subscribe(e -> {
            if (e.kind().equals(TraceEvent.COMPLETE) && "B".equals(e.host()) && e.op() == recvOp) {
                seen[0] = cpuRead(p.b, dst, 0, len);
            }
        });
        tf.at(T0, () -> {
            tf.write(p.epA, iov(src, 0, len), 1, remote(dst, 0, len), 0);
            tf.send(p.epA, iov(msgSrc, 0, 64), 2, 0);
        });
        tf.run();
        assertNotNull(seen[0], "the receive completed");
        assertArrayEquals(data, seen[0]);
        assertEquals(List.of(0, 0), TestFabric.statuses(tf.drain(p.a.reqEvd)));
    }

    @Test
    void rule36_messagesKeepTheirOrderAcrossRnrRetries() {
        TestFabric.Pair p = TestFabric.pair("transport.rnr_retry", "7", "transport.rnr_timer", "10us");
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr sink = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        byte[] m1 = randomBytes(64, 1);
        byte[] m2 = randomBytes(64, 2);
        cpuWrite(p.a, src, 0, m1);
        cpuWrite(p.a, src, 64, m2);
        // Both Sends find no receive and are refused. The first receive is posted just after the first Send's
        // retry has been refused again, before the second Send's retry arrives; the second receive much later.
        int[] naks = new int[1];
        tf.fabric.trace().subscribe(e -> {
            if (e.kind().equals("rnr_nak") && ++naks[0] == 3) {
                tf.sim.schedule(1, () -> tf.recv(p.epB, iov(sink, 0, 64), 101));
                tf.sim.schedule(50_000_000L, () -> tf.recv(p.epB, iov(sink, 1024, 64), 102));
            }
        });
        tf.at(T0, () -> {
            tf.send(p.epA, iov(src, 0, 64), 1, 0);
            tf.send(p.epA, iov(src, 64, 64), 2, 0);
        });
        tf.run();
        assertEquals(List.of(0, 0), TestFabric.statuses(tf.drain(p.a.reqEvd)));
        List<DatEvent> recvs = tf.drain(p.b.recvEvd);
        assertEquals(List.of(101L, 102L), TestFabric.cookies(recvs));
        assertEquals(List.of(0, 0), TestFabric.statuses(recvs));
        assertArrayEquals(m1, cpuRead(p.b, sink, 0, 64), "the first receive holds the first message");
        assertArrayEquals(m2, cpuRead(p.b, sink, 1024, 64), "the second receive holds the second message");
    }
}

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.dat.Out;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.sw.Switch;
import org.datsim.fabric.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Loss recovery of the reliable-connected transport: packets lost in a switch (PFC with too little headroom, or a
 * drop filter that takes chosen packets) are recovered by sequence-error NAKs, by the ACK that covers earlier messages
 * and by the local ACK timer (go-back-N), without placing a message twice, taking a second receive or executing an
 * atomic twice; after {@code hca.retry_count} retries without progress the request fails with
 * DAT_DTO_ERR_TRANSPORT and the later ones are flushed.
 */
class ReliableTransportTest {

    private static final long T0 = 100_000_000L; // 100 us, after the connection is set up
    private static final long US = 1_000_000L;
    private static final int ATOMIC_PRIV = Dat.MEM_PRIV_ALL | Dat.IB_MEM_PRIV_REMOTE_ATOMIC;

    /** A star A, B, C around switch S with A connected to B; the switch drops what {@code drop} accepts. */
    private static TestFabric.Pair star(Predicate<Packet> drop, String... overrides) {
        TestFabric tf = TestFabric.star(overrides);
        TestFabric.Pair p = tf.connectedPair("A", "B", null, null);
        tf.fabric.switches().get(0).dropFilter().set(drop);
        return p;
    }

    /** A filter that drops the first {@code n} packets that {@code which} accepts. */
    private static Predicate<Packet> first(int n, Predicate<Packet> which) {
        int[] left = {n};
        return q -> which.test(q) && left[0]-- > 0;
    }

    private static int id(TestFabric tf, String host) {
        return tf.host(host).hca().hostId();
    }

    private static List<TraceEvent> retransmits(TestFabric tf) {
        return tf.events(Hca.RETRANSMIT, "A");
    }

    private static long le(TestFabric.Node n, Lmr l, long off) {
        return ByteBuffer.wrap(cpuRead(n, l, off, 8)).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    // ------------------------------------------------------------------ PFC loss

    /** Hosts 1..n-1 of a single switch each RDMA-Write {@code writes} messages to their own region of host 0. */
    private static final class Stream {
        final Simulator sim = new Simulator();
        final Fabric fabric;
        final List<TraceEvent> trace = new ArrayList<>();
        final List<WorkRequest> posted = new ArrayList<>();
        int succeeded;
        long lastCompletion;
        boolean intact = true;

        Stream(Params p, int hosts, int writes, long bytes) {
            TraceSource<TraceEvent> source = new TraceSource<>("t");
            source.subscribe(trace::add);
            fabric = new Fabric(sim, TopologyBuilder.singleSwitch("h", hosts).build(new ArrayList<>()), p, Map.of(),
                    new RandomStreams(1), source);
            Hca target = fabric.hosts().get(0).hca();
            long region = writes * bytes;
            long dst = target.memory().allocate((hosts - 1) * region);
            List<byte[]> sent = new ArrayList<>();
            for (int h = 1; h < hosts; h++) {
                Hca hca = fabric.hosts().get(h).hca();
                QueuePair qa = hca.createQueuePair("a" + h);
                QueuePair qb = target.createQueuePair("b" + h);
                TestFabric.connectPair(qa, qb, wr -> {
                    if (wr.status() == WcStatus.SUCCESS) {
                        succeeded++;
                    }
                    lastCompletion = sim.now();
                }, status -> { });
                long src = hca.memory().allocate(region);
                byte[] data = TestFabric.randomBytes((int) region, h);
                hca.memory().cpuWrite(src, data);
                sent.add(data);
                for (int w = 0; w < writes; w++) {
                    WorkRequest wr = new WorkRequest(h * 1000 + w, WorkRequest.RDMA_WRITE, qa, w, 0,
                            new long[] {src + w * bytes}, new long[] {bytes}, dst + (h - 1) * region + w * bytes, 1);
                    posted.add(wr);
                    hca.postRequest(wr);
                }
            }
            sim.run();
            for (int h = 1; h < hosts; h++) {
                byte[] got = target.memory().cpuRead(dst + (h - 1) * region, (int) region);
                intact &= java.util.Arrays.equals(sent.get(h - 1), got);
            }
        }

        long drops() {
            return fabric.switches().get(0).drops();
        }

        List<TraceEvent> retransmits() {
            List<TraceEvent> out = new ArrayList<>();
            for (TraceEvent e : trace) {
                if (e.kind().equals(Hca.RETRANSMIT)) {
                    out.add(e);
                }
            }
            return out;
        }
    }

    @Test
    void aWriteStreamThroughPfcWithTooLittleHeadroomLosesPacketsYetCompletesEveryWriteWithTheRightBytes() {
        // A 5 us cable holds 62.5 KB in flight each way: far beyond the 8 KiB of headroom, so inputs overflow.
        String[] lossy = {"link.flow_control", "pfc", "link.latency", "5us", "switch.buffer", "24KiB",
            "pfc.xoff", "16KiB", "pfc.xon", "8KiB"};
        Stream loss = new Stream(TestFabric.params(lossy), 3, 8, 32 * 1024);
        assertTrue(loss.drops() > 0, "the switch dropped packets");
        assertEquals(16, loss.succeeded, "every write completed successfully");
        assertTrue(loss.intact, "every target region holds the bytes written to it");
        List<TraceEvent> re = loss.retransmits();
        assertTrue(!re.isEmpty(), "the requesters retransmitted");
        for (TraceEvent e : re) {
            assertEquals("rdma_write", e.attrs().get("opcode"));
            assertTrue(List.of("nak_sequence_error", "ack_timeout").contains(e.attrs().get("reason")), e.toString());
            assertTrue((Long) e.attrs().get("attempt") >= 1);
        }
        assertEquals(0, loss.fabric.packetPool().inUse(), "every dropped or duplicate packet went back to the pool");

        // The same stream with 200 KiB of headroom loses nothing and finishes earlier.
        String[] lossless = lossy.clone();
        lossless[5] = "256KiB";
        Stream clean = new Stream(TestFabric.params(lossless), 3, 8, 32 * 1024);
        assertEquals(0, clean.drops());
        assertEquals(16, clean.succeeded);
        assertTrue(clean.intact);
        assertTrue(clean.retransmits().isEmpty(), "no loss, no retransmission");
        assertTrue(loss.lastCompletion > clean.lastCompletion,
                "recovery costs time: " + loss.lastCompletion + " vs " + clean.lastCompletion + " ps");
    }

    // ------------------------------------------------------------------ sequence errors and cumulative ACKs

    @Test
    void aPacketLostInTheMiddleOfAWriteIsNakedAndSentAgainLongBeforeTheAckTimeout() {
        TestFabric.Pair p = star(null); // hca.ack_timeout at its default, 268 ms
        TestFabric tf = p.tf;
        int a = id(tf, "A");
        tf.fabric.switches().get(0).dropFilter().set(
                first(1, q -> q.kind == Packet.RDMA_WRITE && q.srcHost == a && q.index == 1));
        Lmr src = tf.lmr(p.a, 4 * 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 4 * 4096, Dat.MEM_PRIV_ALL);
        byte[] data = TestFabric.randomBytes(4 * 4096, 3);
        cpuWrite(p.a, src, 0, data);
        long[] op = new long[2];
        tf.at(T0, () -> {
            op[0] = tf.write(p.epA, iov(src, 0, 3 * 4096), 1, remote(dst, 0, 3 * 4096), 0);
            op[1] = tf.write(p.epA, iov(src, 3 * 4096, 4096), 2, remote(dst, 3 * 4096, 4096), 0);
        });
        tf.run();
        List<DatEvent> done = tf.drain(p.a.reqEvd);
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_SUCCESS), TestFabric.statuses(done));
        assertArrayEquals(data, cpuRead(p.b, dst, 0, 4 * 4096));
        List<TraceEvent> re = retransmits(tf);
        assertEquals(1, re.size(), "one NAK for the gap, one go-back-N: " + re);
        assertEquals(op[0], re.get(0).op(), "from the first unfinished write");
        assertEquals("nak_sequence_error", re.get(0).attrs().get("reason"));
        assertEquals(1L, re.get(0).attrs().get("attempt"));
        assertTrue(done.get(1).queuedPs < T0 + 50 * US, "recovered in microseconds, not the 268 ms ACK timeout");
        tf.event(TraceEvent.PLACE, "B", op[0]);
        tf.event(TraceEvent.PLACE, "B", op[1]);
        assertEquals(0, tf.fabric.packetPool().inUse());
    }

    @Test
    void aDroppedPacketIsTracedOnceAtTheTimeOfTheDropWithWhereWhyAndWhatItWas() {
        TestFabric.Pair p = star(null);
        TestFabric tf = p.tf;
        int a = id(tf, "A");
        long[] at = {-1, -1}; // when the filter took the packet, and its bytes on the wire
        tf.fabric.switches().get(0).dropFilter().set(q -> {
            // the middle packet of the second Write (3 packets), once
            if (q.kind == Packet.RDMA_WRITE && q.srcHost == a && q.count == 3 && q.index == 1 && at[0] < 0) {
                at[0] = tf.sim.now();
                at[1] = q.wireBytes;
                return true;
            }
            return false;
        });
        Lmr src = tf.lmr(p.a, 4 * 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 4 * 4096, Dat.MEM_PRIV_ALL);
        long[] op = new long[2];
        tf.at(T0, () -> {
            op[0] = tf.write(p.epA, iov(src, 0, 4096), 1, remote(dst, 0, 4096), 0);
            op[1] = tf.write(p.epA, iov(src, 4096, 3 * 4096), 2, remote(dst, 4096, 3 * 4096), 0);
        });
        tf.run();
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_SUCCESS), TestFabric.statuses(tf.drain(p.a.reqEvd)));
        assertEquals(1, tf.fabric.switches().get(0).drops());
        List<TraceEvent> drops = tf.events(Switch.DROP, null);
        assertEquals(1, drops.size(), "one drop, one trace line: " + drops);
        TraceEvent d = drops.get(0);
        assertTrue(at[0] > T0, "the filter took the packet");
        assertEquals(at[0], d.tPs(), "traced when it was dropped");
        assertEquals("A", d.host(), "the requester's host");
        assertEquals(tf.event(TraceEvent.POST, "A", op[1]).ep(), d.ep(), "the requester's endpoint");
        assertEquals(op[1], d.op(), "the operation whose packet it was");
        assertTrue(d.hasCookie());
        assertEquals(2, d.cookie());
        assertEquals(List.of("switch", "port", "reason", "packet", "from", "to", "seq", "index", "packets", "bytes"),
                List.copyOf(d.attrs().keySet()));
        assertEquals("S", d.attrValue("switch"));
        assertEquals("A->S", d.attrValue("port"), "the link it arrived on, as summary.json names its port");
        assertEquals(Switch.FILTER, d.attrValue("reason"));
        assertEquals("rdma_write", d.attrValue("packet"));
        assertEquals("A", d.attrValue("from"));
        assertEquals("B", d.attrValue("to"));
        assertEquals(1L, d.attrLong("seq", -1), "the second message of the connection");
        assertEquals(1L, d.attrLong("index", -1));
        assertEquals(3L, d.attrLong("packets", -1));
        assertEquals(at[1], d.attrLong("bytes", -1), "its bytes on the wire");
        assertTrue(at[1] > 4096, "headers included");
        // the loss it caused: the go-back-N that resent that message
        List<TraceEvent> re = retransmits(tf);
        assertEquals(1, re.size());
        assertEquals(op[1], re.get(0).op());
        assertTrue(re.get(0).tPs() > d.tPs());
    }

    @Test
    void aDroppedAckIsTracedOnTheOperationItAcknowledgesAndAPacketOverflowingThePfcBufferAsBufferFull() {
        TestFabric.Pair p = star(null, "hca.ack_timeout", "1ms");
        TestFabric tf = p.tf;
        int b = id(tf, "B");
        tf.fabric.switches().get(0).dropFilter().set(first(1, q -> q.kind == Packet.ACK && q.srcHost == b));
        Lmr src = tf.lmr(p.a, 8192, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 8192, Dat.MEM_PRIV_ALL);
        long[] op = new long[1];
        tf.at(T0, () -> {
            op[0] = tf.write(p.epA, iov(src, 0, 4096), 7, remote(dst, 0, 4096), 0);
            tf.write(p.epA, iov(src, 4096, 4096), 8, remote(dst, 4096, 4096), 0);
        });
        tf.run();
        List<TraceEvent> drops = tf.events(Switch.DROP, null);
        assertEquals(1, drops.size(), drops::toString);
        TraceEvent d = drops.get(0);
        assertEquals("A", d.host(), "the requester's, though B sent the ACK");
        assertEquals(op[0], d.op());
        assertEquals(7, d.cookie());
        assertEquals("ack", d.attrValue("packet"));
        assertEquals("B->S", d.attrValue("port"));
        assertEquals("B", d.attrValue("from"));
        assertEquals("A", d.attrValue("to"));
        assertEquals(0L, d.attrLong("seq", -1));
        assertEquals(Switch.FILTER, d.attrValue("reason"));

        String[] lossy = {"link.flow_control", "pfc", "link.latency", "5us", "switch.buffer", "24KiB",
            "pfc.xoff", "16KiB", "pfc.xon", "8KiB"};
        Stream loss = new Stream(TestFabric.params(lossy), 3, 4, 32 * 1024);
        long traced = 0;
        for (TraceEvent e : loss.trace) {
            if (e.kind().equals(Switch.DROP)) {
                traced++;
                assertEquals(Switch.BUFFER_FULL, e.attrValue("reason"), e::toString);
                assertEquals("rdma_write", e.attrValue("packet"), e::toString);
                assertEquals("h0", e.attrValue("to"));
                assertEquals(e.attrValue("from") + "->s0", e.attrValue("port"));
                assertTrue(e.op() >= 1000, "one of the writes: " + e);
            }
        }
        assertTrue(loss.drops() > 0);
        assertEquals(loss.drops(), traced, "every drop traced once");
    }

    @Test
    void aCutThroughSwitchKeepsADroppedPacketUntilItsLastBitHasArrived() {
        // A cut-through switch receives at the first bit; the sending port still transmits the packet, so it must not
        // go back to the pool (and be reused) before its last bit is in. It used to: the port then traced a packet
        // whose fields the pool had cleared (NullPointerException) or counted another packet's bytes.
        TestFabric.Pair p = star(null, "switch.mode", "cut_through");
        TestFabric tf = p.tf;
        int a = id(tf, "A");
        tf.fabric.switches().get(0).dropFilter().set(
                first(1, q -> q.kind == Packet.RDMA_WRITE && q.srcHost == a && q.index == 2));
        Lmr src = tf.lmr(p.a, 3 * 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 3 * 4096, Dat.MEM_PRIV_ALL);
        byte[] data = TestFabric.randomBytes(3 * 4096, 4);
        cpuWrite(p.a, src, 0, data);
        tf.at(T0, () -> tf.write(p.epA, iov(src, 0, 3 * 4096), 1, remote(dst, 0, 3 * 4096), 0));
        tf.run();
        assertEquals(List.of(Dat.DTO_SUCCESS), TestFabric.statuses(tf.drain(p.a.reqEvd)));
        assertArrayEquals(data, cpuRead(p.b, dst, 0, 3 * 4096));
        assertEquals(1, retransmits(tf).size());
        assertEquals(0, tf.fabric.packetPool().inUse());
    }

    @Test
    void anAckAlsoCompletesTheEarlierWriteWhoseOwnAckWasLost() {
        TestFabric.Pair p = star(null, "hca.ack_timeout", "1ms");
        TestFabric tf = p.tf;
        int b = id(tf, "B");
        tf.fabric.switches().get(0).dropFilter().set(first(1, q -> q.kind == Packet.ACK && q.srcHost == b));
        Lmr src = tf.lmr(p.a, 8192, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 8192, Dat.MEM_PRIV_ALL);
        tf.at(T0, () -> {
            tf.write(p.epA, iov(src, 0, 4096), 1, remote(dst, 0, 4096), 0);
            tf.write(p.epA, iov(src, 4096, 4096), 2, remote(dst, 4096, 4096), 0);
        });
        tf.run();
        List<DatEvent> done = tf.drain(p.a.reqEvd);
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_SUCCESS), TestFabric.statuses(done));
        assertEquals(List.of(1L, 2L), TestFabric.cookies(done));
        assertTrue(retransmits(tf).isEmpty(), "the second ACK acknowledged both: nothing to resend");
        assertTrue(done.get(0).queuedPs < T0 + 20 * US, "no wait for the ACK timer");
    }

    // ------------------------------------------------------------------ duplicates

    @Test
    void aLostAckLeadsToADuplicateWriteThatIsAcknowledgedAgainWithoutASecondPlacement() {
        TestFabric.Pair p = star(null, "hca.ack_timeout", "20us");
        TestFabric tf = p.tf;
        int b = id(tf, "B");
        tf.fabric.switches().get(0).dropFilter().set(first(1, q -> q.kind == Packet.ACK && q.srcHost == b));
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        cpuWrite(p.a, src, 0, TestFabric.randomBytes(4096, 1));
        byte[] later = TestFabric.randomBytes(4096, 2);
        long[] op = new long[1];
        tf.at(T0, () -> op[0] = tf.write(p.epA, iov(src, 0, 4096), 9, remote(dst, 0, 4096), 0));
        // B's CPU overwrites the target after the Write landed and before its retransmission arrives.
        tf.at(T0 + 10 * US, () -> cpuWrite(p.b, dst, 0, later));
        tf.run();
        DatEvent done = tf.only(p.a.reqEvd);
        assertEquals(Dat.DTO_SUCCESS, done.status);
        assertTrue(done.queuedPs > T0 + 20 * US, "completed by the re-ACK after the timeout");
        List<TraceEvent> re = retransmits(tf);
        assertEquals(1, re.size());
        assertEquals(op[0], re.get(0).op());
        assertEquals("ack_timeout", re.get(0).attrs().get("reason"));
        assertEquals(1L, re.get(0).attrs().get("attempt"));
        assertEquals(2, countTx(tf, op[0]), "the Write went on the wire twice");
        assertEquals(tf.events(TraceEvent.TX_START, "A").get(0).ep(), re.get(0).ep(), "on the Write's endpoint");
        tf.event(TraceEvent.PLACE, "B", op[0]); // exactly one placement
        assertArrayEquals(later, cpuRead(p.b, dst, 0, 4096), "the duplicate was not placed again");
        assertEquals(0, tf.fabric.packetPool().inUse());
    }

    private static int countTx(TestFabric tf, long op) {
        int n = 0;
        for (TraceEvent e : tf.events(TraceEvent.TX_START, "A")) {
            n += e.op() == op ? 1 : 0;
        }
        return n;
    }

    @Test
    void aLostAckLeadsToADuplicateSendThatTakesNoSecondReceive() {
        TestFabric.Pair p = star(null, "hca.ack_timeout", "20us");
        TestFabric tf = p.tf;
        int b = id(tf, "B");
        tf.fabric.switches().get(0).dropFilter().set(first(1, q -> q.kind == Packet.ACK && q.srcHost == b));
        Lmr src = tf.lmr(p.a, 128, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 128, Dat.MEM_PRIV_ALL);
        byte[] one = TestFabric.randomBytes(64, 1);
        byte[] two = TestFabric.randomBytes(64, 2);
        cpuWrite(p.a, src, 0, one);
        cpuWrite(p.a, src, 64, two);
        tf.recv(p.epB, iov(dst, 0, 64), 1);
        tf.recv(p.epB, iov(dst, 64, 64), 2);
        tf.run();
        long[] op = new long[2];
        tf.at(T0, () -> op[0] = tf.send(p.epA, iov(src, 0, 64), 1, 0));
        tf.run();
        assertEquals(Dat.DTO_SUCCESS, tf.only(p.a.reqEvd).status);
        assertEquals("ack_timeout", retransmits(tf).get(0).attrs().get("reason"));
        DatEvent r = tf.only(p.b.recvEvd);
        assertEquals(1L, r.cookie);
        assertEquals(1, p.epB.receivesPosted(), "the duplicate Send took no second receive");
        tf.event(TraceEvent.PLACE, "B", op[0]);
        // The next Send fills the second receive.
        tf.at(tf.sim.now() + US, () -> op[1] = tf.send(p.epA, iov(src, 64, 64), 2, 0));
        tf.run();
        assertEquals(Dat.DTO_SUCCESS, tf.only(p.a.reqEvd).status);
        assertEquals(2L, tf.only(p.b.recvEvd).cookie);
        assertArrayEquals(one, cpuRead(p.b, dst, 0, 64));
        assertArrayEquals(two, cpuRead(p.b, dst, 64, 64));
    }

    /**
     * A 3-packet RDMA Read whose response {@code lost} is dropped once: a later response shows the middle one missing
     * and the Read is sent again at once; the last one is missed only by the ACK timer. Either way each response is
     * placed once and the Read completes with the right bytes, not before they are all in place.
     */
    @ParameterizedTest(name = "response {0} lost")
    @ValueSource(ints = {0, 1, 2})
    void aLostReadResponseIsRecoveredAndTheReadCompletesWithEveryByte(int lost) {
        TestFabric.Pair p = star(null, "hca.ack_timeout", "20us");
        TestFabric tf = p.tf;
        int b = id(tf, "B");
        tf.fabric.switches().get(0).dropFilter().set(
                first(1, q -> q.kind == Packet.READ_RESPONSE && q.srcHost == b && q.index == lost));
        Lmr local = tf.lmr(p.a, 3 * 4096, Dat.MEM_PRIV_ALL);
        Lmr source = tf.lmr(p.b, 3 * 4096, Dat.MEM_PRIV_ALL);
        byte[] data = TestFabric.randomBytes(3 * 4096, 5);
        cpuWrite(p.b, source, 0, data);
        long[] op = new long[1];
        tf.at(T0, () -> op[0] = tf.read(p.epA, iov(local, 0, 3 * 4096), 4, remote(source, 0, 3 * 4096), 0));
        tf.run();
        DatEvent done = tf.only(p.a.reqEvd);
        assertEquals(Dat.DTO_SUCCESS, done.status);
        assertEquals(3 * 4096, done.transferredLength);
        assertArrayEquals(data, cpuRead(p.a, local, 0, 3 * 4096));
        List<TraceEvent> re = retransmits(tf);
        assertEquals(1, re.size(), re.toString());
        assertEquals(op[0], re.get(0).op());
        assertEquals("rdma_read", re.get(0).attrs().get("opcode"));
        assertEquals(lost < 2 ? "response_missing" : "ack_timeout", re.get(0).attrs().get("reason"));
        tf.event(TraceEvent.PLACE, "A", op[0]);
        assertTrue(tf.event(TraceEvent.PLACE, "A", op[0]).tPs() <= done.queuedPs);
        assertEquals(0, tf.fabric.packetPool().inUse());
    }

    @Test
    void aDuplicateAtomicIsAnsweredWithTheSavedValueAndNotExecutedTwice() {
        TestFabric.Pair p = star(null, "hca.ack_timeout", "20us");
        TestFabric tf = p.tf;
        int b = id(tf, "B");
        tf.fabric.switches().get(0).dropFilter().set(first(1, q -> q.kind == Packet.ATOMIC_ACK && q.srcHost == b));
        Lmr local = tf.lmr(p.a, 8, Dat.MEM_PRIV_ALL);
        Lmr target = tf.lmr(p.b, 8, ATOMIC_PRIV);
        cpuWrite(p.b, target, 0, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(41).array());
        tf.at(T0, () -> {
            Out<Long> o = new Out<>();
            TestFabric.ok(tf.dat.postFetchAndAdd(p.epA, 5, iov(local, 0, 8), 3, remote(target, 0, 8), 0, o));
        });
        tf.run();
        DatEvent done = tf.only(p.a.reqEvd);
        assertEquals(Dat.IB_DTO_EVENT, done.number);
        assertEquals(Dat.DTO_SUCCESS, done.status);
        assertEquals(1, retransmits(tf).size());
        assertEquals("fetch_add", retransmits(tf).get(0).attrs().get("opcode"));
        assertEquals(46, le(p.b, target, 0), "added once, not twice");
        assertEquals(41, le(p.a, local, 0), "the duplicate got the original value back");
        assertEquals(0, tf.fabric.packetPool().inUse());
    }

    // ------------------------------------------------------------------ retry exceeded

    @Test
    void withRetryCountZeroTheFirstTimeoutFailsTheRequestWithTransportErrorAndFlushesTheRest() {
        TestFabric.Pair p = star(null, "hca.ack_timeout", "20us", "hca.retry_count", "0");
        TestFabric tf = p.tf;
        int a = id(tf, "A");
        tf.fabric.switches().get(0).dropFilter().set(q -> q.srcHost == a && q.kind != Packet.CM); // a broken path
        Lmr src = tf.lmr(p.a, 3 * 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 3 * 4096, Dat.MEM_PRIV_ALL);
        tf.at(T0, () -> {
            for (int i = 0; i < 3; i++) {
                tf.write(p.epA, iov(src, i * 4096, 4096), i, remote(dst, i * 4096, 4096), 0);
            }
        });
        tf.run();
        List<DatEvent> done = tf.drain(p.a.reqEvd);
        assertEquals(List.of(Dat.DTO_ERR_TRANSPORT, Dat.DTO_ERR_FLUSHED, Dat.DTO_ERR_FLUSHED),
                TestFabric.statuses(done));
        assertEquals(List.of(0L, 1L, 2L), TestFabric.cookies(done));
        assertTrue(retransmits(tf).isEmpty(), "no retry allowed");
        long failed = done.get(0).queuedPs;
        assertTrue(failed >= T0 + 20 * US && failed < T0 + 45 * US, "one ACK timeout after the start: " + failed);
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, tf.only(p.a.connEvd).number);
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
    }

    @Test
    void rule44_aRequestPostedEarlierButRungLaterIsFlushedWhenTheOneRungFirstFails() {
        // The inline Write is posted first, but its doorbell (WQE and payload over PCIe) arrives after the plain
        // one's: the engine takes up the plain Write first and it is first on the wire, so it is the one the retry
        // count fails. The inline Write is later in the queue pair's processing order and is flushed (rule 44);
        // completions still come in posting order (rule 2). It used to be taken for an earlier request that would
        // finish on its own, and no completion came at all: the failed one waited behind it.
        TestFabric.Pair p = star(null, "hca.ack_timeout", "20us", "hca.retry_count", "0", "hca.max_inline", "1KiB",
                "cpu.post_overhead", "0ns");
        TestFabric tf = p.tf;
        int a = id(tf, "A");
        tf.fabric.switches().get(0).dropFilter().set(q -> q.srcHost == a && q.kind != Packet.CM);
        Lmr src = tf.lmr(p.a, 8192, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 8192, Dat.MEM_PRIV_ALL);
        long[] op = new long[2];
        tf.at(T0, () -> {
            op[0] = tf.write(p.epA, iov(src, 0, 1024), 1, remote(dst, 0, 1024), 0);
            op[1] = tf.write(p.epA, iov(src, 1024, 4096), 2, remote(dst, 1024, 4096), 0);
        });
        tf.run();
        assertTrue(tf.event(TraceEvent.START, "A", op[0]).tPs() > tf.event(TraceEvent.START, "A", op[1]).tPs(),
                "the plain doorbell overtook the inline one");
        List<DatEvent> done = tf.drain(p.a.reqEvd);
        assertEquals(List.of(1L, 2L), TestFabric.cookies(done), "both complete, in posting order");
        assertEquals(List.of(Dat.DTO_ERR_FLUSHED, Dat.DTO_ERR_TRANSPORT), TestFabric.statuses(done));
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, tf.only(p.a.connEvd).number);
    }

    @Test
    void onABrokenPathTheRequestIsRetriedRetryCountTimesThenFailsWithTransportError() {
        TestFabric.Pair p = star(null, "hca.ack_timeout", "20us", "hca.retry_count", "3");
        TestFabric tf = p.tf;
        int a = id(tf, "A");
        tf.fabric.switches().get(0).dropFilter().set(q -> q.srcHost == a && q.kind != Packet.CM);
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        long[] op = new long[2];
        tf.at(T0, () -> {
            op[0] = tf.read(p.epA, iov(src, 0, 2048), 1, remote(dst, 0, 2048), 0);
            op[1] = tf.write(p.epA, iov(src, 2048, 2048), 2, remote(dst, 2048, 2048), 0);
        });
        tf.run();
        List<TraceEvent> re = retransmits(tf);
        assertEquals(3, re.size());
        for (int i = 0; i < 3; i++) {
            assertEquals(op[0], re.get(i).op());
            assertEquals("ack_timeout", re.get(i).attrs().get("reason"));
            assertEquals((long) i + 1, re.get(i).attrs().get("attempt"));
        }
        for (int i = 1; i < 3; i++) {
            long gap = re.get(i).tPs() - re.get(i - 1).tPs();
            assertTrue(gap >= 20 * US && gap < 40 * US, "one ACK timeout, 1 to 2 times hca.ack_timeout: " + gap);
        }
        assertTrue(re.get(1).tPs() - re.get(0).tPs() != re.get(2).tPs() - re.get(1).tPs(), "drawn afresh");
        List<DatEvent> done = tf.drain(p.a.reqEvd);
        assertEquals(List.of(Dat.DTO_ERR_TRANSPORT, Dat.DTO_ERR_FLUSHED), TestFabric.statuses(done));
        assertTrue(done.get(0).queuedPs >= re.get(2).tPs() + 20 * US, "the fourth timeout gives up");
        assertEquals(Dat.CONNECTION_EVENT_BROKEN, tf.only(p.a.connEvd).number);
    }

    @Test
    void progressResetsTheRetryCount() {
        // One retry allowed; each of two Writes needs one, with an ACK (progress) in between.
        TestFabric.Pair p = star(null, "hca.ack_timeout", "20us", "hca.retry_count", "1");
        TestFabric tf = p.tf;
        int b = id(tf, "B");
        tf.fabric.switches().get(0).dropFilter().set(q -> q.kind == Packet.ACK && q.srcHost == b
                && (tf.sim.now() < T0 + 10 * US || (tf.sim.now() > T0 + 100 * US && tf.sim.now() < T0 + 110 * US)));
        Lmr src = tf.lmr(p.a, 8192, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 8192, Dat.MEM_PRIV_ALL);
        tf.at(T0, () -> tf.write(p.epA, iov(src, 0, 4096), 1, remote(dst, 0, 4096), 0));
        tf.at(T0 + 100 * US, () -> tf.write(p.epA, iov(src, 4096, 4096), 2, remote(dst, 4096, 4096), 0));
        tf.run();
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_SUCCESS), TestFabric.statuses(tf.drain(p.a.reqEvd)));
        assertEquals(2, retransmits(tf).size());
        assertTrue(tf.drain(p.a.connEvd).isEmpty(), "the connection stayed up");
    }

    @Test
    void aReadSentAgainAfterAnRnrNakHoldsOneReadCreditNotTwo() {
        // max_rdma_read_out = 1: a Send refused with an RNR NAK, a Read behind it (dropped by the responder and sent
        // again with the Send), then a second Read. Counting the resent Read's credit twice left the second waiting
        // for a credit that never came back.
        TestFabric tf = TestFabric.backToBack("transport.rnr_timer", "10us");
        org.datsim.fabric.dat.EpAttributes one = new org.datsim.fabric.dat.EpAttributes(1L << 30, 1L << 30, 64, 64,
                4, 4, 0, 0, 1, 1);
        TestFabric.Pair p = tf.connectedPair("A", "B", one, one);
        Lmr local = tf.lmr(p.a, 3 * 4096, Dat.MEM_PRIV_ALL);
        Lmr remote = tf.lmr(p.b, 3 * 4096, Dat.MEM_PRIV_ALL);
        tf.at(T0, () -> {
            tf.send(p.epA, iov(local, 0, 64), 1, 0);
            tf.read(p.epA, iov(local, 4096, 4096), 2, remote(remote, 0, 4096), 0);
            tf.read(p.epA, iov(local, 8192, 4096), 3, remote(remote, 4096, 4096), 0);
        });
        tf.at(T0 + 5 * US, () -> tf.recv(p.epB, iov(remote, 8192, 64), 9)); // after the first RNR NAK
        tf.run();
        assertTrue(!tf.events("rnr_nak", "B").isEmpty());
        List<DatEvent> done = tf.drain(p.a.reqEvd);
        assertEquals(List.of(1L, 2L, 3L), TestFabric.cookies(done));
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_SUCCESS, Dat.DTO_SUCCESS), TestFabric.statuses(done));
    }

    @Test
    void withoutLossTheAckTimerLeavesNoEventBehindAndDoesNotMoveTheEnd() {
        // The timer is cancelled when nothing is in flight: the run ends when the last completion is written, not
        // an ACK timeout later.
        TestFabric.Pair p = star(null, "hca.ack_timeout", "1ms");
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        tf.at(T0, () -> tf.write(p.epA, iov(src, 0, 4096), 1, remote(dst, 0, 4096), 0));
        tf.run();
        DatEvent done = tf.only(p.a.reqEvd);
        assertEquals(done.queuedPs, tf.sim.now());
        assertEquals(0, tf.sim.pendingCount());
    }
}

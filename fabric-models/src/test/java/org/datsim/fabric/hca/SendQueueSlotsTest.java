package org.datsim.fabric.hca;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * The send queue's slots ({@link QueuePair#requestSlot}): a completed request's object takes the next post, as a
 * provider reuses a completed WQE slot, only when nothing of the model refers to it any more; a reused request is
 * exactly a new one, and a run with reused slots is the run with new objects.
 */
class SendQueueSlotsTest {

    private static final int BYTES = 3000;

    /** Host A writes {@code writes} messages to host B, {@code window} at a time, each completion posting the next. */
    private static final class Stream {
        final Simulator sim = new Simulator();
        final Fabric fabric;
        final QueuePair qa;
        final Set<WorkRequest> objects = Collections.newSetFromMap(new IdentityHashMap<>());
        final List<Long> cookies = new ArrayList<>();
        final List<Long> times = new ArrayList<>();
        int failed;
        boolean intact;
        /** Posts that got a reused object after the queue pair's slots were marked unsafe. */
        int reusedWhenUnsafe;
        int postsWhenUnsafe;

        Stream(Params p, boolean singleSwitch, Predicate<Packet> drop, int depth, int window, int writes) {
            TraceSource<TraceEvent> trace = new TraceSource<>("t");
            TopologyBuilder shape = singleSwitch ? TopologyBuilder.singleSwitch("h", 2)
                    : TopologyBuilder.backToBack("h");
            fabric = new Fabric(sim, shape.build(new ArrayList<>()), p, Map.of(), new RandomStreams(1), trace);
            if (drop != null) {
                fabric.switches().get(0).dropFilter().set(drop);
            }
            Hca a = fabric.hosts().get(0).hca();
            Hca b = fabric.hosts().get(1).hca();
            qa = a.createQueuePair("a");
            QueuePair qb = b.createQueuePair("b");
            qa.setSendQueueDepth(depth);
            long src = a.memory().allocate((long) writes * BYTES);
            long dst = b.memory().allocate((long) writes * BYTES);
            byte[] data = TestFabric.randomBytes(writes * BYTES, 7);
            a.memory().cpuWrite(src, data);
            int[] posted = {0};
            Runnable post = () -> {
                int i = posted[0]++;
                WorkRequest wr = qa.requestSlot(i, WorkRequest.RDMA_WRITE, 1000 + i, 0,
                        new long[] {src + (long) i * BYTES}, new long[] {BYTES}, dst + (long) i * BYTES, 1);
                boolean isNew = objects.add(wr);
                if (qa.slotsUnsafe()) {
                    postsWhenUnsafe++;
                    reusedWhenUnsafe += isNew ? 0 : 1;
                }
                a.postRequest(wr);
            };
            TestFabric.connectPair(qa, qb, wr -> {
                cookies.add(wr.cookie); // read before the slot may take the next post
                times.add(sim.now());
                if (wr.status() != WcStatus.SUCCESS) {
                    failed++;
                }
                if (posted[0] < writes) {
                    post.run();
                }
            }, status -> {
                failed++;
            });
            for (int i = 0; i < Math.min(window, writes); i++) {
                post.run();
            }
            sim.run();
            intact = java.util.Arrays.equals(data, b.memory().cpuRead(dst, writes * BYTES));
        }
    }

    private static List<Long> expectedCookies(int writes) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < writes; i++) {
            out.add(1000L + i);
        }
        return out;
    }

    @Test
    void aWindowedStreamReusesItsSlotsAndIsTheRunWithNewRequests() {
        Params p = TestFabric.params();
        Stream reused = new Stream(p, false, null, 4, 4, 64);
        Stream fresh = new Stream(p, false, null, 0, 4, 64);
        assertEquals(expectedCookies(64), reused.cookies, "every write completed once, in posting order");
        assertEquals(0, reused.failed);
        assertTrue(reused.intact, "every write's bytes landed where it was aimed");
        assertEquals(4, reused.objects.size(), "four slots, reused for 64 writes");
        assertEquals(64, fresh.objects.size(), "depth 0: a new request per post");
        assertEquals(fresh.cookies, reused.cookies);
        assertEquals(fresh.times, reused.times, "the same completion times");
        assertEquals(fresh.sim.eventsExecuted(), reused.sim.eventsExecuted(), "the same events");
        assertEquals(0, reused.fabric.packetPool().inUse());
    }

    @Test
    void afterARetransmissionTheQueuePairsSlotsAreNeverReused() {
        Params p = TestFabric.params();
        int[] seen = {0};
        // The switch drops the third data packet it sees: a sequence-error NAK, then go-back-N.
        Predicate<Packet> dropThird = q -> q.kind == Packet.RDMA_WRITE && ++seen[0] == 3;
        Stream lossy = new Stream(p, true, dropThird, 4, 4, 32);
        assertEquals(1, lossy.fabric.switches().get(0).drops());
        assertTrue(lossy.qa.slotsUnsafe(), "the retransmission marked the queue pair's slots unsafe");
        assertEquals(expectedCookies(32), lossy.cookies, "every write completed once, in posting order");
        assertEquals(0, lossy.failed);
        assertTrue(lossy.intact, "every write's bytes landed where it was aimed");
        assertTrue(lossy.postsWhenUnsafe > 20, "most posts came after the loss: " + lossy.postsWhenUnsafe);
        assertEquals(0, lossy.reusedWhenUnsafe, "a new request for every post once a loss happened");
        assertEquals(0, lossy.fabric.packetPool().inUse());
    }

    @Test
    void aReportedRequestIsReusableOnlyWhenNoPacketOrQueueHoldsIt() {
        Stream s = new Stream(TestFabric.params(), false, null, 0, 0, 1);
        WorkRequest wr = new WorkRequest(1, WorkRequest.RDMA_WRITE, s.qa, 1, 0, new long[] {0}, new long[] {8}, 0, 1);
        assertFalse(wr.reusable(), "not reported yet");
        wr.reported = true;
        assertTrue(wr.reusable());
        wr.packetTaken();
        assertFalse(wr.reusable(), "a packet holds it");
        wr.packetReleased();
        assertTrue(wr.reusable());
        wr.inRung = true;
        assertFalse(wr.reusable(), "still in the rung queue");
        wr.inRung = false;
        s.qa.markSlotsUnsafe();
        assertFalse(wr.reusable(), "its queue pair retransmitted or failed");
    }

    @Test
    void theSlotOfAnUnreusableRequestTakesANewObject() {
        Stream s = new Stream(TestFabric.params(), false, null, 2, 0, 1);
        WorkRequest first = s.qa.requestSlot(1, WorkRequest.SEND, 1, 0, new long[0], new long[0], 0, 0);
        s.qa.requestSlot(2, WorkRequest.SEND, 2, 0, new long[0], new long[0], 0, 0);
        WorkRequest third = s.qa.requestSlot(3, WorkRequest.SEND, 3, 0, new long[0], new long[0], 0, 0);
        assertNotSame(first, third, "the first was never reported: its slot gets a new request");
        third.reported = true;
        s.qa.requestSlot(4, WorkRequest.SEND, 4, 0, new long[0], new long[0], 0, 0);
        assertSame(third, s.qa.requestSlot(5, WorkRequest.SEND, 5, 0, new long[0], new long[0], 0, 0));
        assertEquals(5, third.opId);
    }

    /**
     * Every field, final or not, of a reused request (the request as posted and its progress) equals a new request's:
     * nothing of the earlier one is left.
     */
    @Test
    void aReusedRequestEqualsANewOneFieldByField() throws Exception {
        Stream s = new Stream(TestFabric.params(), false, null, 0, 0, 1);
        WorkRequest used = new WorkRequest(9, WorkRequest.RDMA_READ, s.qa, 9, 3, new long[] {64}, new long[] {128},
                4096, 5);
        List<Field> fields = mutableFields(WorkRequest.class, RequestProgress.class);
        scramble(used, fields, s.qa);
        long[] seg = {256};
        long[] len = {512};
        used.init(10, WorkRequest.RDMA_WRITE, 11, 2, seg, len, 8192, 3);
        WorkRequest fresh = new WorkRequest(10, WorkRequest.RDMA_WRITE, s.qa, 11, 2, seg, len, 8192, 3);
        assertFieldsEqual(fields, fresh, used);
        assertSame(fresh.qp, used.qp);
    }

    /**
     * The progress's one reset leaves nothing of the operation before: every progress field, each set away from its
     * initial value, equals a fresh request's after {@link RequestProgress#resetProgress}, and the request as posted
     * is untouched by it.
     */
    @Test
    void theProgressResetEqualsAFreshProgress() throws Exception {
        Stream s = new Stream(TestFabric.params(), false, null, 0, 0, 1);
        long[] seg = {256};
        long[] len = {512};
        WorkRequest used = new WorkRequest(10, WorkRequest.RDMA_WRITE, s.qa, 11, 2, seg, len, 8192, 3);
        List<Field> progress = mutableFields(RequestProgress.class);
        assertTrue(progress.size() > 30, "the progress fields: " + progress.size());
        scramble(used, progress, s.qa);
        used.resetProgress();
        WorkRequest fresh = new WorkRequest(10, WorkRequest.RDMA_WRITE, s.qa, 11, 2, seg, len, 8192, 3);
        assertFieldsEqual(progress, fresh, used);
        assertFieldsEqual(mutableFields(WorkRequest.class), fresh, used);
    }

    private static List<Field> mutableFields(Class<?>... classes) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c : classes) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) && !Modifier.isFinal(f.getModifiers())) {
                    f.setAccessible(true);
                    fields.add(f);
                }
            }
        }
        return fields;
    }

    /** Sets every field away from its initial value, as a finished request's may be. */
    private static void scramble(WorkRequest used, List<Field> fields, QueuePair qp) throws Exception {
        for (Field f : fields) {
            Class<?> t = f.getType();
            if (t == long.class) {
                f.setLong(used, f.getLong(used) + 77);
            } else if (t == int.class) {
                f.setInt(used, f.getInt(used) + 77);
            } else if (t == boolean.class) {
                f.setBoolean(used, !f.getBoolean(used));
            } else if (t == byte[].class) {
                f.set(used, new byte[] {1});
            } else if (t == QueuePair.class) {
                f.set(used, qp);
            } else if (t == WorkRequest.class) {
                f.set(used, used);
            } else if (t == java.util.ArrayList.class) {
                f.set(used, new java.util.ArrayList<>(List.of(new long[] {1})));
            } else if (t == long[].class) {
                f.set(used, new long[] {1, 2});
            } else if (t == Object.class) {
                f.set(used, "bound");
            } else {
                throw new AssertionError("a field of a type this test does not know: " + f);
            }
        }
    }

    private static void assertFieldsEqual(List<Field> fields, WorkRequest expected, WorkRequest actual)
            throws Exception {
        for (Field f : fields) {
            Object a = f.get(actual);
            Object b = f.get(expected);
            if (a instanceof long[] la && b instanceof long[] lb) {
                assertArrayEquals(lb, la, f.getName());
            } else {
                assertEquals(b, a, f.getName());
            }
        }
    }
}

package org.datsim.fabric.hca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import org.datsim.fabric.TestFabric;
import org.junit.jupiter.api.Test;

/**
 * A queue pair's number reserved before its object is made ({@link Hca#reserveQueuePair}), and its destruction
 * ({@link Hca#destroyQueuePair}): the HCA keeps nothing of a destroyed queue pair.
 */
class QueuePairLifetimeTest {

    @Test
    void aReservedNumberGivesTheQueuePairItWouldHaveHadCreatedAtOnce() {
        TestFabric eager = TestFabric.backToBack();
        TestFabric lazy = TestFabric.backToBack();
        Hca a = eager.host("A").hca();
        Hca b = lazy.host("A").hca();
        List<QueuePair> created = new ArrayList<>();
        int[] reserved = new int[5];
        for (int i = 0; i < 5; i++) {
            created.add(a.createQueuePair("q" + i));
            reserved[i] = b.reserveQueuePair();
        }
        assertEquals(5, b.queuePairCount());
        assertEquals(0, b.liveQueuePairs(), "reserved, not made");
        for (int i = 4; i >= 0; i--) { // made in another order: same numbers and labels
            QueuePair q = b.createQueuePair("q" + i, reserved[i]);
            assertEquals(created.get(i).cacheKey, q.cacheKey);
            assertEquals(created.get(i).flow, q.flow, "default ECMP label");
        }
        assertEquals(5, b.liveQueuePairs());
        // the create-QP commands ran at the reservations: the QP-context cache holds the same contexts
        for (int i = 0; i < 5; i++) {
            assertEquals(a.qpcCache().contains(i), b.qpcCache().contains(i), "context " + i);
        }
        assertThrows(IllegalArgumentException.class, () -> b.createQueuePair("x", 5), "not reserved");
    }

    @Test
    void aHostDestroysOnlyItsOwnQueuePairs() {
        TestFabric tf = TestFabric.backToBack();
        QueuePair qa = tf.host("A").hca().createQueuePair("a");
        Hca b = tf.host("B").hca();
        assertThrows(IllegalArgumentException.class, () -> b.destroyQueuePair(qa));
        tf.host("A").hca().destroyQueuePair(qa);
        assertTrue(qa.isDestroyed());
        tf.host("A").hca().destroyQueuePair(qa); // twice: nothing more
        assertEquals(0, tf.host("A").hca().liveQueuePairs());
    }

    /** Makes, runs and destroys a connected pair that sends one Write under DCQCN; returns weak references to it. */
    private static List<WeakReference<Object>> runAndDestroy(TestFabric tf) {
        Hca a = tf.host("A").hca();
        Hca b = tf.host("B").hca();
        QueuePair qa = a.createQueuePair("a");
        QueuePair qb = b.createQueuePair("b");
        boolean[] done = {false};
        TestFabric.connectPair(qa, qb, wr -> {
            done[0] = wr.status() == WcStatus.SUCCESS;
            wr.qp.hca().destroyQueuePair(wr.qp);
        }, s -> { });
        long src = a.memory().allocate(100_000);
        long dst = b.memory().allocate(100_000);
        WorkRequest wr = new WorkRequest(1, WorkRequest.RDMA_WRITE, qa, 1, 0, new long[] {src},
                new long[] {100_000}, dst, 1);
        wr.setPayloadFree(true);
        a.postRequest(wr);
        tf.sim.run();
        assertTrue(done[0], "the Write completed");
        b.destroyQueuePair(qb);
        List<WeakReference<Object>> refs = new ArrayList<>();
        refs.add(new WeakReference<>(qa));
        refs.add(new WeakReference<>(qb));
        refs.add(new WeakReference<>(wr));
        return refs;
    }

    @Test
    void nothingOfTheHcaKeepsADestroyedQueuePair() throws Exception {
        TestFabric tf = TestFabric.backToBack("cc.algorithm", "dcqcn", "ecn.enabled", "true", "link.flow_control",
                "pfc", "switch.buffer_mode", "shared");
        List<WeakReference<Object>> refs = runAndDestroy(tf);
        assertEquals(0, tf.host("A").hca().liveQueuePairs());
        assertEquals(0, tf.host("B").hca().liveQueuePairs());
        for (int i = 0; i < 20 && refs.stream().anyMatch(r -> r.get() != null); i++) {
            System.gc();
            Thread.sleep(10);
        }
        for (WeakReference<Object> r : refs) {
            assertNull(r.get(), "still reachable after its destruction: " + r.get());
        }
        assertEquals(0, tf.host("B").hca().packetsForDestroyed());
    }
}

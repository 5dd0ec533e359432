package org.datsim.fabric.dat;

import static org.datsim.fabric.TestFabric.assertError;
import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.ok;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.datsim.fabric.TestFabric;
import org.junit.jupiter.api.Test;

/**
 * Rule 11: a request keeps its request-queue slot (one of max_request_dtos) after it completes, until its completion,
 * or a later signalled completion of the same request queue, is reaped by dat_evd_wait or dat_evd_dequeue. dapl
 * allocates a cookie from a ring of max_request_dtos per post (dapls_cb_get) and gives it back only when the
 * completion is polled (dapls_cb_put moves the ring's tail up to it, which frees the suppressed ones before it too);
 * until then a post returns DAT_INSUFFICIENT_RESOURCES (DAT_RESOURCE_MEMORY).
 */
class RequestSlotsTest {

    private static final long T0 = 100_000_000L;
    /** Long after any completion of these small operations. */
    private static final long LATER = 50_000_000L;

    private static EpAttributes maxRequestDtos(int n) {
        EpAttributes d = EpAttributes.defaults();
        return new EpAttributes(d.maxMessageSize(), d.maxRdmaSize(), d.maxRecvDtos(), n, d.maxRecvIov(),
                d.maxRequestIov(), Dat.COMPLETION_DEFAULT_FLAG, d.recvCompletionFlags());
    }

    private static final class Setup {
        final TestFabric tf;
        final TestFabric.Pair p;
        final Lmr src;
        final Lmr dst;
        final List<Integer> rets = new ArrayList<>();

        Setup(int maxRequestDtos) {
            tf = TestFabric.backToBack();
            p = tf.connectedPair("A", "B", maxRequestDtos(maxRequestDtos), null);
            src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
            dst = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        }

        int write(long cookie, int flags) {
            return tf.dat.postRdmaWrite(p.epA, iov(src, 0, 8), cookie, remote(dst, 0, 8), flags, new Out<>());
        }

        void at(long t, long cookie, int flags) {
            tf.at(t, () -> rets.add(write(cookie, flags)));
        }

        DatEvent dequeue() {
            Out<DatEvent> e = new Out<>();
            ok(tf.dat.evdDequeue(p.a.reqEvd, e));
            return e.get();
        }
    }

    @Test
    void rule11_aCompletedRequestKeepsItsSlotUntilItsCompletionIsReaped() {
        Setup s = new Setup(1);
        s.at(T0, 1, 0);
        s.at(T0 + LATER, 2, 0); // the first Write completed long ago, but its completion is still queued
        s.tf.run();
        assertEquals(DatReturn.SUCCESS, s.rets.get(0));
        assertError(DatReturn.INSUFFICIENT_RESOURCES, DatReturn.SUB_RESOURCE_MEMORY, s.rets.get(1));
        assertEquals(1, s.p.a.reqEvd.size(), "the first completion waits on the EVD");
        assertEquals(1, s.p.epA.requestsInFlight(), "its slot is still taken");

        assertEquals(1L, s.dequeue().cookie);
        assertEquals(0, s.p.epA.requestsInFlight(), "reaping it gave the slot back");
        ok(s.write(3, 0));
    }

    @Test
    void rule11_reapingAnEarlierCompletionDoesNotFreeTheSlotOfALaterOne() {
        Setup s = new Setup(2);
        s.at(T0, 1, 0);
        s.at(T0, 2, 0);
        s.at(T0 + LATER, 3, 0);
        s.tf.run();
        assertError(DatReturn.INSUFFICIENT_RESOURCES, DatReturn.SUB_RESOURCE_MEMORY, s.rets.get(2));
        assertEquals(1L, s.dequeue().cookie);
        assertEquals(1, s.p.epA.requestsInFlight(), "the second completion is not reaped yet");
        ok(s.write(4, 0));
        assertError(DatReturn.INSUFFICIENT_RESOURCES, DatReturn.SUB_RESOURCE_MEMORY, s.write(5, 0));
    }

    @Test
    void rule11_aSignalledCompletionReapedFreesTheSuppressedOnesBeforeIt() {
        Setup s = new Setup(3);
        s.at(T0, 1, Dat.COMPLETION_SUPPRESS_FLAG);
        s.at(T0, 2, Dat.COMPLETION_SUPPRESS_FLAG);
        s.at(T0, 3, 0);
        s.at(T0 + LATER, 4, 0);
        s.tf.run();
        assertError(DatReturn.INSUFFICIENT_RESOURCES, DatReturn.SUB_RESOURCE_MEMORY, s.rets.get(3));
        assertEquals(1, s.p.a.reqEvd.size(), "only the signalled one queued an event");
        assertEquals(3L, s.dequeue().cookie);
        assertEquals(0, s.p.epA.requestsInFlight(), "all three slots are free once the signalled one is reaped");
        ok(s.write(5, 0));
        ok(s.write(6, 0));
        ok(s.write(7, 0));
    }

    @Test
    void rule11_aSuppressedRequestAfterTheLastReapedCompletionKeepsItsSlot() {
        Setup s = new Setup(2);
        s.at(T0, 1, 0);
        s.at(T0, 2, Dat.COMPLETION_SUPPRESS_FLAG);
        s.tf.run();
        assertEquals(1L, s.dequeue().cookie);
        assertEquals(1, s.p.epA.requestsInFlight(), "the suppressed one completed after the reaped one");
        ok(s.write(3, 0));
        assertError(DatReturn.INSUFFICIENT_RESOURCES, DatReturn.SUB_RESOURCE_MEMORY, s.write(4, 0));
    }

    @Test
    void rule11_aFailedOrFlushedCompletionHoldsItsSlotUntilReapedToo() {
        Setup s = new Setup(2);
        s.tf.at(T0, () -> s.rets.add(s.tf.dat.postRdmaWrite(s.p.epA, iov(s.src, 0, 8), 1,
                new RmrTriplet(0x7777, s.dst.address(), 8), 0, new Out<>()))); // an unknown rmr_context
        s.at(T0, 2, 0);
        s.tf.run();
        assertEquals(Dat.EP_STATE_DISCONNECTED, s.p.epA.state());
        assertEquals(2, s.p.epA.requestsInFlight(), "failed and flushed, not reaped");
        assertEquals(Dat.DTO_ERR_REMOTE_ACCESS, s.dequeue().status);
        assertEquals(1, s.p.epA.requestsInFlight());
        assertEquals(Dat.DTO_ERR_FLUSHED, s.dequeue().status);
        assertEquals(0, s.p.epA.requestsInFlight());
    }

    @Test
    void rule11_datEpResetGivesEverySlotBack() {
        Setup s = new Setup(1);
        s.at(T0, 1, 0);
        s.tf.run();
        ok(s.tf.dat.epDisconnect(s.p.epA, Dat.CLOSE_ABRUPT_FLAG));
        s.tf.run();
        ok(s.tf.dat.epReset(s.p.epA));
        assertEquals(0, s.p.epA.requestsInFlight());
        assertEquals(1L, s.dequeue().cookie, "the old connection's completion is still there to take");
        assertEquals(0, s.p.epA.requestsInFlight(), "and reaping it frees nothing twice");
    }
}

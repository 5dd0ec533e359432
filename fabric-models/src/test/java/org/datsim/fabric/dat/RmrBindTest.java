package org.datsim.fabric.dat;

import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.seg;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.TestFabric;
import org.junit.jupiter.api.Test;

/**
 * dat_rmr_create, dat_rmr_bind and dat_rmr_free (rules 22 to 29 and 51): the bind is a request-queue operation
 * with its own completion event, it fences later operations, its context becomes valid only when it executes, the
 * previous context is refused after a rebind, and its arguments are checked as the man page and dapl do.
 */
class RmrBindTest {

    private static final long T0 = 100_000_000L;

    private static Rmr rmr(TestFabric tf, TestFabric.Node n) {
        Out<Rmr> r = new Out<>();
        TestFabric.ok(tf.fabric.provider().rmrCreate(n.pz, r));
        return r.value;
    }

    private static int bind(TestFabric tf, Rmr rmr, Lmr lmr, long off, long len, int priv, Ep ep, long cookie,
            Out<Integer> ctx) {
        return tf.fabric.provider().rmrBind(rmr, lmr, seg(lmr, off, len), priv, ep, cookie, 0, ctx, new Out<>());
    }

    private static RmrTriplet window(int ctx, Lmr lmr, long off, long len) {
        return new RmrTriplet(ctx, lmr.address() + off, len);
    }

    @Test
    void rule22_bindCompletesOnTheRequestEvdWithItsCookieAndRmr() {
        TestFabric.Pair p = TestFabric.pair();
        Lmr buf = p.tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        Rmr win = rmr(p.tf, p.b);
        Out<Integer> ctx = new Out<>();
        p.tf.at(T0, () -> TestFabric.ok(bind(p.tf, win, buf, 0, 4096, Dat.MEM_PRIV_REMOTE_WRITE, p.epB, 44, ctx)));
        p.tf.run();
        DatEvent e = p.tf.only(p.b.reqEvd);
        assertEquals(Dat.RMR_BIND_COMPLETION_EVENT, e.number);
        assertEquals(44, e.cookie);
        assertEquals(Dat.DTO_SUCCESS, e.status);
        assertEquals(win, e.rmr);
        assertNotEquals(0, (int) ctx.value);
    }

    @Test
    void rule22_theDat20ProfileReportsABindAsADtoCompletion() {
        TestFabric tf = TestFabric.backToBack("provider.bind_completion_event", "dto_bind_mw");
        TestFabric.Pair p = tf.connectedPair("A", "B", null, null);
        Lmr buf = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        Rmr win = rmr(tf, p.b);
        tf.at(T0, () -> TestFabric.ok(bind(tf, win, buf, 0, 64, Dat.MEM_PRIV_REMOTE_READ, p.epB, 5, new Out<>())));
        tf.run();
        DatEvent e = tf.only(p.b.reqEvd);
        assertEquals(Dat.DTO_COMPLETION_EVENT, e.number);
        assertEquals(Dat.DTO_BIND_MW, e.operation);
    }

    @Test
    void rule23_aSendPostedAfterABindWaitsForIt() {
        TestFabric.Pair p = TestFabric.pair();
        Lmr buf = p.tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        Lmr peer = p.tf.lmr(p.a, 64, Dat.MEM_PRIV_ALL);
        p.tf.recv(p.epA, iov(peer, 0, 64), 1);
        Rmr win = rmr(p.tf, p.b);
        long[] send = new long[1];
        p.tf.at(T0, () -> {
            TestFabric.ok(bind(p.tf, win, buf, 0, 4096, Dat.MEM_PRIV_REMOTE_WRITE, p.epB, 1, new Out<>()));
            send[0] = p.tf.send(p.epB, iov(buf, 0, 8), 2, 0);
        });
        p.tf.run();
        TraceEvent wait = p.tf.event(TraceEvent.FENCE_WAIT, "B", send[0]);
        assertEquals("rmr_bind implicit fence", wait.attrs().get("reason"));
        List<DatEvent> done = p.tf.drain(p.b.reqEvd);
        assertEquals(List.of(Dat.RMR_BIND_COMPLETION_EVENT, Dat.DTO_COMPLETION_EVENT),
                done.stream().map(e -> e.number).toList());
        assertTrue(p.tf.event(TraceEvent.START, "B", send[0]).tPs() >= done.get(0).queuedPs - 150_000L,
                "the Send starts once the bind has executed (its completion is a CQE write later)");
    }

    @Test
    void rule25_afterARebindTheOldContextIsRefusedAndTheNewOneWorks() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr buf = tf.lmr(p.b, 8192, Dat.MEM_PRIV_ALL);
        Lmr src = tf.lmr(p.a, 64, Dat.MEM_PRIV_ALL);
        Rmr win = rmr(tf, p.b);
        Out<Integer> first = new Out<>();
        Out<Integer> second = new Out<>();
        tf.at(T0, () -> TestFabric.ok(bind(tf, win, buf, 0, 4096, Dat.MEM_PRIV_REMOTE_WRITE, p.epB, 1, first)));
        tf.at(T0 + 20_000_000L, () -> tf.write(p.epA, iov(src, 0, 64), 10, window(first.value, buf, 0, 64), 0));
        tf.at(T0 + 40_000_000L, () -> TestFabric.ok(bind(tf, win, buf, 4096, 4096, Dat.MEM_PRIV_REMOTE_WRITE, p.epB,
                2, second)));
        tf.at(T0 + 60_000_000L, () -> tf.write(p.epA, iov(src, 0, 64), 11, window(second.value, buf, 4096, 64),
                0));
        tf.at(T0 + 80_000_000L, () -> tf.write(p.epA, iov(src, 0, 64), 12, window(first.value, buf, 0, 64), 0));
        tf.run();
        assertNotEquals(first.value, second.value);
        List<DatEvent> a = tf.drain(p.a.reqEvd);
        assertEquals(List.of(10L, 11L, 12L), TestFabric.cookies(a));
        assertEquals(List.of(Dat.DTO_SUCCESS, Dat.DTO_SUCCESS, Dat.DTO_ERR_REMOTE_ACCESS), TestFabric.statuses(a));
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epA.state());
    }

    @Test
    void rule27_rmrPrivilegesMustBeBackedByTheLmrs() {
        TestFabric.Pair p = TestFabric.pair();
        Lmr readOnly = p.tf.lmr(p.b, 4096, Dat.MEM_PRIV_LOCAL_READ);
        Rmr win = rmr(p.tf, p.b);
        TestFabric.assertError(DatReturn.PRIVILEGES_VIOLATION, 0,
                bind(p.tf, win, readOnly, 0, 64, Dat.MEM_PRIV_REMOTE_WRITE, p.epB, 1, new Out<>()));
        TestFabric.ok(bind(p.tf, win, readOnly, 0, 64, Dat.MEM_PRIV_REMOTE_READ, p.epB, 1, new Out<>()));
        TestFabric.assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG3,
                bind(p.tf, win, readOnly, 4000, 200, Dat.MEM_PRIV_REMOTE_READ, p.epB, 1, new Out<>()));
        TestFabric.assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG4,
                bind(p.tf, win, readOnly, 0, 64, Dat.MEM_PRIV_LOCAL_READ, p.epB, 1, new Out<>()));
    }

    @Test
    void aBindWithoutItsLmrTripletIsAnInvalidParameterNotACrash() {
        // a bridged program's frame may carry no segment: the provider answers, it does not throw
        TestFabric.Pair p = TestFabric.pair();
        Lmr lmr = p.tf.lmr(p.b, 4096, Dat.MEM_PRIV_LOCAL_READ);
        TestFabric.assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG3,
                p.tf.fabric.provider().rmrBind(rmr(p.tf, p.b), lmr, null, Dat.MEM_PRIV_REMOTE_READ, p.epB, 1, 0,
                        new Out<>(), new Out<>()));
    }

    @Test
    void rule28_objectsOfDifferentProtectionZonesAreAnInvalidParameter() {
        TestFabric.Pair p = TestFabric.pair();
        Out<Pz> other = new Out<>();
        TestFabric.ok(p.tf.fabric.provider().pzCreate(p.b.ia, other));
        Lmr elsewhere = p.tf.lmr(p.b, other.value, 4096, Dat.MEM_PRIV_ALL);
        Rmr win = rmr(p.tf, p.b);
        TestFabric.assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG4,
                bind(p.tf, win, elsewhere, 0, 64, Dat.MEM_PRIV_REMOTE_READ, p.epB, 1, new Out<>()));
    }

    @Test
    void rule29_bindOutsideConnectedIsRejectedByDefaultAndFlushedInTheSpecProfile() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node b = tf.open("B");
        Ep unconnected = tf.ep(b);
        Lmr buf = tf.lmr(b, 4096, Dat.MEM_PRIV_ALL);
        Rmr win = rmr(tf, b);
        assertEquals(DatReturn.INVALID_STATE, DatReturn.type(bind(tf, win, buf, 0, 64, Dat.MEM_PRIV_REMOTE_READ,
                unconnected, 1, new Out<>())));

        TestFabric spec = TestFabric.backToBack("provider.bind_when_disconnected", "flush");
        TestFabric.Pair p = spec.connectedPair("A", "B", null, null);
        Lmr buf2 = spec.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        Rmr win2 = rmr(spec, p.b);
        spec.at(T0, () -> TestFabric.ok(spec.fabric.provider().epDisconnect(p.epB, Dat.CLOSE_ABRUPT_FLAG)));
        spec.at(T0 + 50_000_000L, () -> TestFabric.ok(bind(spec, win2, buf2, 0, 64, Dat.MEM_PRIV_REMOTE_READ,
                p.epB, 7, new Out<>())));
        spec.run();
        DatEvent e = spec.only(p.b.reqEvd);
        assertEquals(Dat.RMR_BIND_COMPLETION_EVENT, e.number);
        assertEquals(Dat.DTO_ERR_FLUSHED, e.status);
        TestFabric.ok(spec.fabric.provider().lmrFree(buf2)); // the flushed bind gave the LMR back
    }

    @Test
    void rule51_anLmrBoundByAnRmrCannotBeFreedUntilTheRmrIs() {
        TestFabric.Pair p = TestFabric.pair();
        Lmr buf = p.tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        Rmr win = rmr(p.tf, p.b);
        p.tf.at(T0, () -> TestFabric.ok(bind(p.tf, win, buf, 0, 64, Dat.MEM_PRIV_REMOTE_READ, p.epB, 1,
                new Out<>())));
        p.tf.run();
        DatProvider dat = p.tf.fabric.provider();
        TestFabric.assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_LMR_IN_USE, dat.lmrFree(buf));
        TestFabric.assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_PZ_IN_USE, dat.pzFree(p.b.pz));
        TestFabric.ok(dat.rmrFree(win));
        TestFabric.ok(dat.lmrFree(buf));
        TestFabric.assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_RMR, dat.rmrFree(win));
    }
}

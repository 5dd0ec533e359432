package org.datsim.fabric.dat;

import static org.datsim.fabric.TestFabric.assertError;
import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.datsim.fabric.TestFabric;
import org.junit.jupiter.api.Test;

/**
 * Object lifetime (rule 51): freeing a PZ, an EVD or (gracefully) an IA that still has users fails with
 * DAT_INVALID_STATE and the matching *_IN_USE subtype; an abrupt IA close succeeds and takes its children with it;
 * and a freed handle is DAT_INVALID_HANDLE afterwards.
 */
class ObjectLifetimeTest {

    @Test
    void rule51_pzFreeWithAnEndpointIsPzInUse() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        Ep ep = tf.ep(a);
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_PZ_IN_USE, tf.dat.pzFree(a.pz));
        assertFalse(a.pz.isFreed());
        ok(tf.dat.epFree(ep));
        ok(tf.dat.pzFree(a.pz));
        assertTrue(a.pz.isFreed());
    }

    @Test
    void rule51_pzFreeWithAnLmrIsPzInUse() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        Lmr lmr = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        int ret = tf.dat.pzFree(a.pz);
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_PZ_IN_USE, ret);
        assertEquals(DatReturn.CLASS_ERROR | 0x00070000 | 83, ret);
        ok(tf.dat.lmrFree(lmr));
        ok(tf.dat.pzFree(a.pz));
    }

    @Test
    void rule51_evdFreeWhileAnEndpointUsesItIsEvdInUse() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        Ep ep = tf.ep(a);
        for (Evd evd : new Evd[] {a.reqEvd, a.recvEvd, a.connEvd}) {
            assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EVD_IN_USE, tf.dat.evdFree(evd));
        }
        ok(tf.dat.evdFree(a.crEvd));
        ok(tf.dat.epFree(ep));
        ok(tf.dat.evdFree(a.reqEvd));
        ok(tf.dat.evdFree(a.recvEvd));
        ok(tf.dat.evdFree(a.connEvd));
    }

    @Test
    void rule51_evdFreeWhileAPspUsesItIsEvdInUse() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node b = tf.open("B");
        Out<Psp> psp = new Out<>();
        ok(tf.dat.pspCreate(b.ia, 1, b.crEvd, 0, psp));
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EVD_IN_USE, tf.dat.evdFree(b.crEvd));
        ok(tf.dat.pspFree(psp.get()));
        ok(tf.dat.evdFree(b.crEvd));
    }

    @Test
    void theAsyncEvdCannotBeFreedByItself() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EVD_IN_USE,
                tf.dat.evdFree(a.ia.asyncEvd()));
    }

    @Test
    void rule51_gracefulIaCloseWithChildrenIsIaInUseAndAbruptCloseSucceeds() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr lmr = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_IA_IN_USE,
                tf.dat.iaClose(p.a.ia, Dat.CLOSE_GRACEFUL_FLAG));
        assertFalse(p.a.ia.isFreed());
        assertEquals(Dat.EP_STATE_CONNECTED, p.epA.state());

        ok(tf.dat.iaClose(p.a.ia, Dat.CLOSE_ABRUPT_FLAG));
        assertTrue(p.a.ia.isFreed());
        for (DatHandle h : new DatHandle[] {p.epA, lmr, p.a.pz, p.a.reqEvd, p.a.recvEvd, p.a.connEvd, p.a.crEvd,
            p.a.ia.asyncEvd()}) {
            assertTrue(h.isFreed(), h + " was freed with its IA");
        }
        tf.run();
        // The peer sees the connection go away.
        assertEquals(Dat.CONNECTION_EVENT_DISCONNECTED, tf.only(p.b.connEvd).number);
        assertEquals(Dat.EP_STATE_DISCONNECTED, p.epB.state());
        assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA,
                tf.dat.iaClose(p.a.ia, Dat.CLOSE_ABRUPT_FLAG));
    }

    @Test
    void gracefulIaCloseSucceedsOnceEveryChildIsFreed() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        Ep ep = tf.ep(a);
        Lmr lmr = tf.lmr(a, 4096, Dat.MEM_PRIV_ALL);
        ok(tf.dat.epFree(ep));
        ok(tf.dat.lmrFree(lmr));
        ok(tf.dat.pzFree(a.pz));
        for (Evd evd : new Evd[] {a.reqEvd, a.recvEvd, a.connEvd, a.crEvd}) {
            ok(tf.dat.evdFree(evd));
        }
        ok(tf.dat.iaClose(a.ia, Dat.CLOSE_GRACEFUL_FLAG));
        assertTrue(a.ia.isFreed());
    }

    @Test
    void usingAFreedHandleIsInvalidHandle() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr lmr = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Out<Long> op = new Out<>();

        ok(tf.dat.epFree(p.epA));
        assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP,
                tf.dat.postSend(p.epA, iov(lmr, 0, 8), 1, 0, op));
        assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP,
                tf.dat.postRecv(p.epA, iov(lmr, 0, 8), 1, 0, op));
        assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP,
                tf.dat.epDisconnect(p.epA, Dat.CLOSE_ABRUPT_FLAG));
        assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP, tf.dat.epGetStatus(p.epA,
                new Out<>()));
        assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP, tf.dat.epFree(p.epA));

        ok(tf.dat.lmrFree(lmr));
        assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_LMR, tf.dat.lmrFree(lmr));

        ok(tf.dat.evdFree(p.a.reqEvd));
        assertError(DatReturn.INVALID_HANDLE, 0, tf.dat.evdDequeue(p.a.reqEvd, new Out<>()));
        assertError(DatReturn.INVALID_HANDLE, 0, tf.dat.evdFree(p.a.reqEvd));
        assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EVD_REQUEST,
                tf.dat.epCreate(p.a.ia, p.a.pz, p.a.recvEvd, p.a.reqEvd, p.a.connEvd, null, new Out<>()));

        ok(tf.dat.pzFree(p.a.pz));
        assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_PZ, tf.dat.pzFree(p.a.pz));
        assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_PZ,
                tf.dat.lmrCreate(p.a.ia, -1, 4096, p.a.pz, Dat.MEM_PRIV_ALL, new Out<>()));

        Out<Psp> psp = new Out<>();
        ok(tf.dat.pspCreate(p.a.ia, 3, p.a.crEvd, 0, psp));
        ok(tf.dat.pspFree(psp.get()));
        assertError(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_PSP, tf.dat.pspFree(psp.get()));

        tf.run();
        // Freeing the connected endpoint disconnected it abruptly: the peer hears about it.
        assertEquals(Dat.CONNECTION_EVENT_DISCONNECTED, tf.only(p.b.connEvd).number);
        assertEquals(List.of(), tf.drain(p.b.reqEvd));
    }

    @Test
    void aFreedLmrsContextNoLongerWorks() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr lmr = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        ok(tf.dat.lmrFree(lmr));
        assertError(DatReturn.PRIVILEGES_VIOLATION, 0, tf.dat.postSend(p.epA, iov(lmr, 0, 8), 1, 0, new Out<>()));
    }

    @Test
    void iaOpenWithAnUnknownNameIsProviderNotFound() {
        TestFabric tf = TestFabric.backToBack();
        Out<Ia> ia = new Out<>();
        assertError(DatReturn.PROVIDER_NOT_FOUND, DatReturn.SUB_NAME_NOT_REGISTERED,
                tf.dat.iaOpen(tf.host("A"), "mlx5_0", 8, ia));
        assertError(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2,
                tf.dat.iaOpen(tf.host("A"), "ofa-v2-ib0", 0, ia));
        assertEquals(null, ia.get());
        ok(tf.dat.iaOpen(tf.host("A"), "ofa-v2-ib0", 8, ia));
        assertEquals(8, ia.get().asyncEvd().qlen());
    }
}

package org.datsim.fabric.dat;

import static org.datsim.fabric.TestFabric.assertError;
import static org.datsim.fabric.TestFabric.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.datsim.fabric.TestFabric;
import org.junit.jupiter.api.Test;

/**
 * dat_ep_free(3DAT): an endpoint in DAT_EP_STATE_RESERVED, DAT_EP_STATE_PASSIVE_CONNECTION_PENDING or
 * DAT_EP_STATE_TENTATIVE_CONNECTION_PENDING cannot be freed; the call returns DAT_INVALID_STATE with the subtype that
 * names the state, as dapl_ep_free.c does (DAT_ERROR(DAT_INVALID_STATE, dapls_ep_state_subtype(ep))). The RSP that
 * holds the endpoint keeps it and still connects.
 */
class EpFreeStateTest {

    private static final long QUAL = 7100;

    @Test
    void datEpFree3dat_anEndpointReservedByAnRspIsRefusedAndTheRspStillConnectsIt() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        Ep epA = tf.ep(a);
        Ep epB = tf.ep(b);
        ok(tf.dat.rspCreate(b.ia, QUAL, epB, b.crEvd, new Out<>()));
        assertEquals(Dat.EP_STATE_RESERVED, epB.state());

        int ret = tf.dat.epFree(epB);
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_RESERVED, ret);
        assertEquals(0x80070035, ret, "DAT_ERROR(DAT_INVALID_STATE, DAT_INVALID_STATE_EP_RESERVED = 53)");
        assertFalse(epB.isFreed());
        assertEquals(Dat.EP_STATE_RESERVED, epB.state());

        ok(tf.dat.epConnect(epA, "B", QUAL, Dat.TIMEOUT_INFINITE, new byte[0]));
        tf.runUntilCmResend();
        DatEvent req = tf.only(b.crEvd);
        assertEquals(Dat.CONNECTION_REQUEST_EVENT, req.number);
        ok(tf.dat.crAccept(req.cr, null, new byte[0]));
        tf.run();
        assertEquals(Dat.CONNECTION_EVENT_ESTABLISHED, tf.only(a.connEvd).number);
        assertEquals(Dat.CONNECTION_EVENT_ESTABLISHED, tf.only(b.connEvd).number);
        assertEquals(Dat.EP_STATE_CONNECTED, epB.state());
    }

    @Test
    void datEpFree3dat_anEndpointWhoseConnectionRequestAwaitsTheConsumerIsRefusedAsPassiveConnectionPending() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        Ep epA = tf.ep(a);
        Ep epB = tf.ep(b);
        ok(tf.dat.rspCreate(b.ia, QUAL, epB, b.crEvd, new Out<>()));
        ok(tf.dat.epConnect(epA, "B", QUAL, Dat.TIMEOUT_INFINITE, new byte[0]));
        tf.runUntilCmResend();
        DatEvent req = tf.only(b.crEvd);
        assertEquals(Dat.EP_STATE_PASSIVE_CONNECTION_PENDING, epB.state());

        int ret = tf.dat.epFree(epB);
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_PASSCONNPENDING, ret);
        assertEquals(0x80070031, ret, "DAT_ERROR(DAT_INVALID_STATE, DAT_INVALID_STATE_EP_PASSCONNPENDING = 49)");
        assertFalse(epB.isFreed());

        // Once the consumer rejects the request, the endpoint is UNCONNECTED again and may be freed.
        ok(tf.dat.crReject(req.cr));
        assertEquals(Dat.EP_STATE_UNCONNECTED, epB.state());
        ok(tf.dat.epFree(epB));
        assertTrue(epB.isFreed());
    }

    @Test
    void datEpFree3dat_tentativeConnectionPendingIsRefusedWithItsSubtype() {
        // No endpoint reaches TENTATIVE_CONNECTION_PENDING here (it belongs to provider-created endpoints of
        // DAT_PSP_PROVIDER_FLAG, which this provider refuses), so the state is set directly: the check is dapl's.
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        Ep ep = tf.ep(a);
        ep.state = Dat.EP_STATE_TENTATIVE_CONNECTION_PENDING;
        int ret = tf.dat.epFree(ep);
        assertError(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_TENTCONNPENDING, ret);
        assertEquals(0x80070032, ret, "DAT_ERROR(DAT_INVALID_STATE, DAT_INVALID_STATE_EP_TENTCONNPENDING = 50)");
        assertFalse(ep.isFreed());
    }

    @Test
    void datEpFree3dat_theOtherStatesFreeAsBefore() {
        TestFabric.Pair p = TestFabric.pair();
        ok(p.tf.dat.epFree(p.epA)); // CONNECTED: disconnected abruptly, then freed
        assertTrue(p.epA.isFreed());
        TestFabric tf = TestFabric.backToBack();
        Ep unconnected = tf.ep(tf.open("A"));
        ok(tf.dat.epFree(unconnected));
        assertTrue(unconnected.isFreed());
        // An RSP freed first gives its endpoint back: UNCONNECTED, and free.
        TestFabric.Node b = tf.open("B");
        Ep epB = tf.ep(b);
        Out<Rsp> rsp = new Out<>();
        ok(tf.dat.rspCreate(b.ia, QUAL, epB, b.crEvd, rsp));
        ok(tf.dat.rspFree(rsp.get()));
        ok(tf.dat.epFree(epB));
    }
}

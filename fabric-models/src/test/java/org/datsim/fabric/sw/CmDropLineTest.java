package org.datsim.fabric.sw;

import static org.datsim.fabric.TestFabric.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.Ep;
import org.datsim.fabric.dat.Out;
import org.datsim.fabric.link.Packet;
import org.junit.jupiter.api.Test;

/**
 * The {@code drop} line of a connection-management packet names the message and its connection: A connects to B
 * through switch S, whose drop filter takes chosen CM messages; the connection manager's {@code cm_retry} and
 * {@code cm_timeout} lines carry the same communication id, so a reader can tell which resend recovered which loss.
 */
class CmDropLineTest {

    private static final long US = 1_000_000L;
    private static final long QUAL = 10;

    private final TestFabric tf = TestFabric.star("cm.response_timeout", "100us", "cm.max_retries", "2");
    private final TestFabric.Node a = tf.open("A");
    private final TestFabric.Node b = tf.open("B");
    private final Switch sw = tf.fabric.switches().get(0);

    /** Drops every CM packet of the given types that S receives (no filter: none). */
    private void dropEvery(String... types) {
        List<String> t = List.of(types);
        sw.dropFilter().set(p -> p.kind == Packet.CM && t.contains(((CmPacketContext) p.context).type()));
    }

    private Ep connect(long at) {
        Ep ep = tf.ep(a);
        tf.at(at, () -> ok(tf.dat.epConnect(ep, "B", QUAL, Dat.TIMEOUT_INFINITE, new byte[0])));
        return ep;
    }

    @Test
    void aDroppedReqNamesTheMessageAndTheConnectionItsResendsCarry() {
        ok(tf.dat.pspCreate(b.ia, QUAL, b.crEvd, 0, new Out<>()));
        dropEvery("REQ");
        Ep ep = connect(10 * US);
        tf.run();

        List<TraceEvent> drops = tf.events(Switch.DROP, null);
        assertEquals(3, drops.size(), "the REQ and its 2 resends: " + drops);
        TraceEvent d = drops.get(0);
        assertTrue(d.tPs() > 10 * US && d.tPs() < 110 * US, "dropped on its way, before A sends it again: " + d);
        assertEquals("A", d.host(), "a CM packet names the host that sent it");
        assertEquals(ep.name(), d.ep(), "on the lane of the endpoint that sent it, like its resends");
        assertEquals(-1, d.op(), "it belongs to no operation");
        assertEquals("S", d.attrValue("switch"));
        assertEquals("A->S", d.attrValue("port"));
        assertEquals(Switch.FILTER, d.attrValue("reason"));
        assertEquals("cm", d.attrValue("packet"));
        assertEquals("REQ", d.attrValue("message"));
        assertEquals("A", d.attrValue("from"));
        assertEquals("B", d.attrValue("to"));
        assertNull(d.attrValue("seq"), "no operation, no sequence number");
        long conn = d.attrLong("comm_id", -1);
        assertTrue(conn > 0, "the REQ's communication id: " + d);
        for (TraceEvent o : drops) {
            assertEquals("REQ", o.attrValue("message"), o::toString);
            assertEquals(conn, o.attrLong("comm_id", -1), "a REQ sent again is the same connection's: " + o);
        }

        List<TraceEvent> retries = tf.events("cm_retry", "A");
        assertEquals(2, retries.size(), retries::toString);
        for (TraceEvent r : retries) {
            assertEquals(ep.name(), r.ep());
            assertEquals(conn, r.attrLong("comm_id", -1), r::toString);
        }
        TraceEvent timeout = tf.events("cm_timeout", "A").get(0);
        assertEquals(conn, timeout.attrLong("comm_id", -1), timeout::toString);
        assertEquals(Dat.CONNECTION_EVENT_TIMED_OUT, tf.only(a.connEvd).number);
    }

    @Test
    void aDroppedRepNamesItselfAndTheConnectionOfTheReqItAnswersAndANewConnectionHasANewId() {
        ok(tf.dat.pspCreate(b.ia, QUAL, b.crEvd, 0, new Out<>()));
        dropEvery("REP");
        connect(10 * US);
        Ep epB = tf.ep(b);
        tf.at(50 * US, () -> ok(tf.dat.crAccept(tf.only(b.crEvd).cr, epB, new byte[0])));
        tf.run();
        List<TraceEvent> drops = tf.events(Switch.DROP, null);
        assertTrue(drops.size() >= 1, "B's REP was dropped");
        TraceEvent rep = drops.get(0);
        assertEquals("B", rep.host());
        assertEquals("REP", rep.attrValue("message"));
        assertEquals("B->S", rep.attrValue("port"));
        long conn = rep.attrLong("comm_id", -1);
        TraceEvent retry = tf.events("cm_retry", "A").get(0);
        assertEquals("REQ", retry.attrValue("message"), "A sends its REQ again for want of the REP");
        assertEquals(conn, retry.attrLong("comm_id", -1), "the REP belongs to the REQ's connection");

        // a second connection from another endpoint: its REQ gets through, its REP is dropped under another id
        tf.drain(a.connEvd);
        tf.drain(b.connEvd);
        long t1 = tf.sim.now() + 10 * US;
        connect(t1);
        Ep epB2 = tf.ep(b);
        tf.at(t1 + 40 * US, () -> ok(tf.dat.crAccept(tf.only(b.crEvd).cr, epB2, new byte[0])));
        tf.run();
        List<TraceEvent> all = tf.events(Switch.DROP, null);
        List<TraceEvent> later = all.subList(drops.size(), all.size());
        assertTrue(!later.isEmpty(), "the second connection's REP was dropped too");
        for (TraceEvent o : later) {
            assertEquals("REP", o.attrValue("message"), o::toString);
            assertNotEquals(conn, o.attrLong("comm_id", -1), "another connection, another id: " + o);
        }
    }
}

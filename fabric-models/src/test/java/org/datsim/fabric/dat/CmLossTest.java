package org.datsim.fabric.dat;

import static org.datsim.fabric.TestFabric.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.sw.Switch;
import org.junit.jupiter.api.Test;

/**
 * Connection management on a lossy fabric: the switch between A and B drops chosen CM messages (its drop filter),
 * and the connection manager recovers them as IB CM does: a REQ, REP or DREQ is sent again after
 * {@code cm.response_timeout} without its answer, a message sent again is answered again without a second
 * connection request, and after {@code cm.max_retries} resends the connection manager gives up at the time the
 * parameters predict.
 */
class CmLossTest {

    private static final long T0 = 100_000_000L; // 100 us
    private static final long US = 1_000_000L;
    /** cm.response_timeout in these tests. */
    private static final long RT = 100 * US;
    private static final long QUAL = 10;

    /** A star A, B, C around switch S with B listening on {@link #QUAL}; cm.response_timeout is 100 us. */
    private static final class Lossy {
        final TestFabric tf;
        final TestFabric.Node a;
        final TestFabric.Node b;
        final Ep epA;
        final Ep epB;
        final Switch sw;

        Lossy(String... overrides) {
            List<String> all = new ArrayList<>(List.of("cm.response_timeout", "100us"));
            all.addAll(List.of(overrides));
            tf = TestFabric.star(all.toArray(new String[0]));
            a = tf.open("A");
            b = tf.open("B");
            epA = tf.ep(a);
            epB = tf.ep(b);
            sw = tf.fabric.switches().get(0);
        }

        void listen() {
            ok(tf.dat.pspCreate(b.ia, QUAL, b.crEvd, 0, new Out<>()));
        }

        /** Drops the first {@code n} CM messages of a type (every one for n &lt; 0). */
        void drop(String type, int n) {
            int[] left = {n};
            sw.dropFilter().set(q -> isCm(q, type) && (n < 0 || left[0]-- > 0));
        }

        void connectAt(long t) {
            tf.at(t, () -> ok(tf.dat.epConnect(epA, "B", QUAL, Dat.TIMEOUT_INFINITE, new byte[] {1, 2})));
        }

        /** At {@code t}, accepts the one connection request B has received by then. */
        void acceptAt(long t) {
            tf.at(t, () -> ok(tf.dat.crAccept(tf.only(b.crEvd).cr, epB, new byte[0])));
        }

        /** Connects A to B with nothing dropped (the drop filter is set afterwards). */
        void connected() {
            listen();
            connectAt(T0);
            acceptAt(T0 + 50 * US);
            tf.run();
            assertEquals(Dat.CONNECTION_EVENT_ESTABLISHED, tf.only(a.connEvd).number);
            assertEquals(Dat.CONNECTION_EVENT_ESTABLISHED, tf.only(b.connEvd).number);
            assertEquals(List.of(), tf.events(ConnectionCalls.CM_RETRY, null), "nothing lost, nothing resent");
        }

        List<TraceEvent> retries() {
            return tf.events(ConnectionCalls.CM_RETRY, null);
        }

        /** The {@code cm} lines of a message type handled at a host. */
        List<TraceEvent> handled(String host, String type) {
            List<TraceEvent> out = new ArrayList<>();
            for (TraceEvent e : tf.events("cm", host)) {
                if (type.equals(e.attrValue("message"))) {
                    out.add(e);
                }
            }
            return out;
        }

        List<TraceEvent> drops() {
            return tf.events(Switch.DROP, null);
        }
    }

    private static boolean isCm(Packet q, String type) {
        return q.kind == Packet.CM && ((CmMessage) q.context).type().equals(type);
    }

    private static void assertRetry(TraceEvent e, String host, Ep ep, String message, long attempt, long tPs) {
        assertEquals(host, e.host(), e::toString);
        assertEquals(ep.name(), e.ep(), e::toString);
        assertEquals(message, e.attrValue("message"), e::toString);
        assertEquals(attempt, e.attrLong("attempt", -1), e::toString);
        assertEquals(tPs, e.tPs(), e::toString);
    }

    private static List<Integer> numbers(TestFabric tf, Evd evd) {
        return TestFabric.numbers(tf.drain(evd));
    }

    // ------------------------------------------------------------------ one message lost

    @Test
    void aLostReqIsSentAgainAndTheConnectionIsEstablishedWithOneConnectionRequest() {
        Lossy l = new Lossy();
        l.listen();
        l.drop("REQ", 1);
        l.connectAt(T0);
        l.tf.runUntil(T0 + RT - 1);
        assertEquals(List.of(), l.tf.drain(l.b.crEvd), "the first REQ was lost");
        assertEquals(Dat.EP_STATE_ACTIVE_CONNECTION_PENDING, l.epA.state());
        l.tf.runUntil(T0 + RT + 50 * US);
        DatEvent req = l.tf.only(l.b.crEvd);
        assertEquals(Dat.CONNECTION_REQUEST_EVENT, req.number);
        assertEquals(QUAL, req.cr.connQual());
        ok(l.tf.dat.crAccept(req.cr, l.epB, new byte[0]));
        l.tf.run();

        assertEquals(List.of(Dat.CONNECTION_EVENT_ESTABLISHED), numbers(l.tf, l.a.connEvd));
        assertEquals(List.of(Dat.CONNECTION_EVENT_ESTABLISHED), numbers(l.tf, l.b.connEvd));
        assertEquals(List.of(), l.tf.drain(l.b.crEvd), "no second connection request");
        assertEquals(Dat.EP_STATE_CONNECTED, l.epA.state());
        assertEquals(Dat.EP_STATE_CONNECTED, l.epB.state());
        assertEquals(1, l.retries().size(), l.retries()::toString);
        assertRetry(l.retries().get(0), "A", l.epA, "REQ", 1, T0 + RT);
        assertEquals(1, l.drops().size());
        assertEquals("cm", l.drops().get(0).attrValue("packet"));
        assertEquals(1, l.handled("B", "REQ").size(), "B saw only the REQ sent again");
        assertEquals(List.of(), l.tf.events(ConnectionCalls.CM_TIMEOUT, null));
        assertEquals(0, l.tf.fabric.packetPool().inUse());
    }

    @Test
    void aLostRepIsRecoveredByTheReqSentAgainWhichGetsTheSameRepAndNoSecondConnectionRequest() {
        Lossy l = new Lossy();
        l.listen();
        l.drop("REP", 1);
        l.connectAt(T0);
        l.acceptAt(T0 + 50 * US); // B's REP would be sent again at T0 + 150 us; A's REQ comes first, at T0 + 100 us
        l.tf.run();

        assertEquals(List.of(Dat.CONNECTION_EVENT_ESTABLISHED), numbers(l.tf, l.a.connEvd));
        assertEquals(List.of(Dat.CONNECTION_EVENT_ESTABLISHED), numbers(l.tf, l.b.connEvd));
        assertEquals(List.of(), l.tf.drain(l.b.crEvd), "the REQ sent again made no second connection request");
        assertEquals(1, l.retries().size(), l.retries()::toString);
        assertRetry(l.retries().get(0), "A", l.epA, "REQ", 1, T0 + RT);
        List<TraceEvent> reqs = l.handled("B", "REQ");
        assertEquals(2, reqs.size());
        assertEquals(null, reqs.get(0).attrValue("duplicate"));
        assertEquals(Boolean.TRUE, reqs.get(1).attrValue("duplicate"), "B knew the second REQ");
        assertEquals(1, l.handled("A", "REP").size(), "the REP B sent again in answer to it");
        TraceEvent established = l.tf.events("event", "A").get(0);
        assertTrue(established.tPs() > T0 + RT, "A connected once the REP came again");
        assertEquals(Dat.EP_STATE_CONNECTED, l.epB.state());
    }

    @Test
    void aLostRtuIsRecoveredByTheRepSentAgainWhichTheActiveSideAnswersWithTheRtuAgain() {
        Lossy l = new Lossy();
        l.listen();
        l.drop("RTU", 1);
        l.connectAt(T0);
        l.acceptAt(T0 + 50 * US);
        l.tf.run();

        List<DatEvent> atA = l.tf.drain(l.a.connEvd);
        List<DatEvent> atB = l.tf.drain(l.b.connEvd);
        assertEquals(List.of(Dat.CONNECTION_EVENT_ESTABLISHED), TestFabric.numbers(atA), "one ESTABLISHED at A");
        assertEquals(List.of(Dat.CONNECTION_EVENT_ESTABLISHED), TestFabric.numbers(atB));
        assertEquals(1, l.retries().size(), l.retries()::toString);
        assertRetry(l.retries().get(0), "B", l.epB, "REP", 1, T0 + 50 * US + RT);
        List<TraceEvent> reps = l.handled("A", "REP");
        assertEquals(2, reps.size());
        assertEquals(Boolean.TRUE, reps.get(1).attrValue("duplicate"));
        assertEquals(2, l.handled("B", "RTU").size() + l.drops().size(), "the RTU was sent twice, once lost");
        assertTrue(atA.get(0).queuedPs < T0 + 60 * US, "A was connected by the first REP");
        assertTrue(atB.get(0).queuedPs > T0 + 50 * US + RT, "B only by the second RTU");
        assertEquals(Dat.EP_STATE_CONNECTED, l.epA.state());
        assertEquals(Dat.EP_STATE_CONNECTED, l.epB.state());
    }

    @Test
    void dataOvertakingALostRtuEstablishesThePassiveSideAndStopsItsRep() {
        Lossy l = new Lossy();
        l.listen();
        l.drop("RTU", -1);
        Lmr src = l.tf.lmr(l.a, 64, Dat.MEM_PRIV_ALL);
        Lmr dst = l.tf.lmr(l.b, 64, Dat.MEM_PRIV_ALL);
        l.connectAt(T0);
        l.acceptAt(T0 + 50 * US);
        l.tf.at(T0 + 70 * US, () -> {
            assertEquals(Dat.EP_STATE_CONNECTED, l.epA.state());
            assertEquals(Dat.EP_STATE_COMPLETION_PENDING, l.epB.state(), "the RTU was lost");
            l.tf.write(l.epA, TestFabric.iov(src, 0, 64), 1, TestFabric.remote(dst, 0, 64), 0);
        });
        l.tf.run();
        assertEquals(List.of(Dat.CONNECTION_EVENT_ESTABLISHED), numbers(l.tf, l.b.connEvd), "by the Write's data");
        assertEquals(Dat.EP_STATE_CONNECTED, l.epB.state());
        assertEquals(List.of(), l.retries(), "the REP is not sent again once communication is established");
        assertTrue(l.tf.sim.now() < T0 + RT, "no CM timer left behind: " + l.tf.sim.now());
    }

    @Test
    void aLostDreqIsSentAgainAndBothSidesDisconnectOnce() {
        Lossy l = new Lossy();
        l.connected();
        l.drop("DREQ", 1);
        long t1 = l.tf.sim.now() + 10 * US;
        assertTrue(l.tf.sim.now() < t1);
        l.tf.at(t1, () -> ok(l.tf.dat.epDisconnect(l.epA, Dat.CLOSE_GRACEFUL_FLAG)));
        l.tf.run();

        List<DatEvent> atA = l.tf.drain(l.a.connEvd);
        List<DatEvent> atB = l.tf.drain(l.b.connEvd);
        assertEquals(List.of(Dat.CONNECTION_EVENT_DISCONNECTED), TestFabric.numbers(atA));
        assertEquals(List.of(Dat.CONNECTION_EVENT_DISCONNECTED), TestFabric.numbers(atB));
        assertEquals(1, l.retries().size(), l.retries()::toString);
        assertRetry(l.retries().get(0), "A", l.epA, "DREQ", 1, t1 + RT);
        assertTrue(atB.get(0).queuedPs > t1 + RT, "B heard of it from the DREQ sent again");
        assertTrue(atA.get(0).queuedPs > atB.get(0).queuedPs, "A disconnected on B's DREP");
        assertEquals(Dat.EP_STATE_DISCONNECTED, l.epA.state());
        assertEquals(Dat.EP_STATE_DISCONNECTED, l.epB.state());
        assertEquals(List.of(), l.tf.events(ConnectionCalls.CM_TIMEOUT, null));
    }

    @Test
    void aRejectionLostOnTheWayIsSentAgainInAnswerToTheReqSentAgain() {
        Lossy l = new Lossy();
        l.listen();
        l.drop("REJ", 1);
        l.connectAt(T0);
        l.tf.at(T0 + 50 * US, () -> ok(l.tf.dat.crReject(l.tf.only(l.b.crEvd).cr)));
        l.tf.run();
        assertEquals(List.of(Dat.CONNECTION_EVENT_PEER_REJECTED), numbers(l.tf, l.a.connEvd));
        assertEquals(List.of(), l.tf.drain(l.b.crEvd), "no second connection request");
        assertEquals(1, l.retries().size(), l.retries()::toString);
        assertRetry(l.retries().get(0), "A", l.epA, "REQ", 1, T0 + RT);
        assertEquals(Dat.EP_STATE_DISCONNECTED, l.epA.state());
    }

    @Test
    void aReqSentAgainToAReservedServicePointGetsTheRepAgainNotARejection() {
        Lossy l = new Lossy();
        ok(l.tf.dat.rspCreate(l.b.ia, QUAL, l.epB, l.b.crEvd, new Out<>()));
        l.drop("REP", 1);
        l.connectAt(T0);
        l.tf.at(T0 + 50 * US, () -> ok(l.tf.dat.crAccept(l.tf.only(l.b.crEvd).cr, null, new byte[0])));
        l.tf.run();
        assertEquals(List.of(Dat.CONNECTION_EVENT_ESTABLISHED), numbers(l.tf, l.a.connEvd));
        assertEquals(List.of(Dat.CONNECTION_EVENT_ESTABLISHED), numbers(l.tf, l.b.connEvd));
        assertEquals(List.of(), l.tf.drain(l.b.crEvd));
        assertEquals(List.of(), l.handled("A", "REJ"), "the RSP, used once, did not reject the REQ sent again");
        assertEquals(Dat.EP_STATE_CONNECTED, l.epB.state());
    }

    // ------------------------------------------------------------------ the connection manager gives up

    @Test
    void everyReqLostEndsInTimedOutAfterTheRetriesAtTheTimeTheParametersPredict() {
        Lossy l = new Lossy(); // cm.max_retries at its default, 15
        l.listen();
        l.drop("REQ", -1);
        l.connectAt(T0);
        l.tf.run();

        DatEvent e = l.tf.only(l.a.connEvd);
        assertEquals(Dat.CONNECTION_EVENT_TIMED_OUT, e.number);
        assertEquals(T0 + 16 * RT, e.queuedPs, "the first REQ, 15 resends, each waited cm.response_timeout");
        assertEquals(Dat.EP_STATE_DISCONNECTED, l.epA.state());
        List<TraceEvent> retries = l.retries();
        assertEquals(15, retries.size());
        for (int k = 1; k <= 15; k++) {
            assertRetry(retries.get(k - 1), "A", l.epA, "REQ", k, T0 + k * RT);
        }
        List<TraceEvent> timeouts = l.tf.events(ConnectionCalls.CM_TIMEOUT, "A");
        assertEquals(1, timeouts.size());
        assertEquals("REQ", timeouts.get(0).attrValue("message"));
        assertEquals(15, timeouts.get(0).attrLong("resends", -1));
        assertEquals(T0 + 16 * RT, timeouts.get(0).tPs());
        assertEquals(16, l.sw.drops());
        assertEquals(List.of(), l.tf.drain(l.b.crEvd));
        assertEquals(T0 + 16 * RT, l.tf.sim.now(), "nothing runs after the timeout");
    }

    @Test
    void theDefaultTimeoutAndRetriesAreRdmaCmsFifteenResendsOf4Point29Seconds() {
        Lossy l = new Lossy("cm.response_timeout", "4.294967296s", "cm.max_retries", "15");
        TestFabric defaults = TestFabric.star();
        assertEquals(l.tf.params.get(org.datsim.fabric.FabricParams.CM_RESPONSE_TIMEOUT),
                defaults.params.get(org.datsim.fabric.FabricParams.CM_RESPONSE_TIMEOUT));
        assertEquals(15, defaults.params.get(org.datsim.fabric.FabricParams.CM_MAX_RETRIES));
        l.listen();
        l.drop("REQ", -1);
        l.connectAt(T0);
        l.tf.run();
        DatEvent e = l.tf.only(l.a.connEvd);
        assertEquals(Dat.CONNECTION_EVENT_TIMED_OUT, e.number);
        assertEquals(T0 + 16 * 4_294_967_296_000L, e.queuedPs, "16 x 4.096 us x 2^20 after the first REQ");
    }

    @Test
    void fewerRetriesGiveUpSoonerAndUnreachableIsTheOfaProfilesEvent() {
        Lossy l = new Lossy("cm.max_retries", "2", "provider.cm_timeout_event", "unreachable");
        l.listen();
        l.drop("REQ", -1);
        l.connectAt(T0);
        l.tf.run();
        DatEvent e = l.tf.only(l.a.connEvd);
        assertEquals(Dat.CONNECTION_EVENT_UNREACHABLE, e.number);
        assertEquals(T0 + 3 * RT, e.queuedPs);
        assertEquals(2, l.retries().size());
        assertEquals(3, l.sw.drops());
    }

    @Test
    void noRetriesAtAllGiveUpAfterOneResponseTimeout() {
        Lossy l = new Lossy("cm.max_retries", "0");
        l.listen();
        l.drop("REQ", -1);
        l.connectAt(T0);
        l.tf.run();
        DatEvent e = l.tf.only(l.a.connEvd);
        assertEquals(Dat.CONNECTION_EVENT_TIMED_OUT, e.number);
        assertEquals(T0 + RT, e.queuedPs);
        assertEquals(List.of(), l.retries());
    }

    @Test
    void aDreqNeverAnsweredStillDisconnectsLocallyAfterTheRetriesAndEachDreqSentAgainGetsItsDrep() {
        Lossy l = new Lossy();
        l.connected();
        l.drop("DREP", -1);
        long t1 = l.tf.sim.now() + 10 * US;
        l.tf.at(t1, () -> ok(l.tf.dat.epDisconnect(l.epA, Dat.CLOSE_GRACEFUL_FLAG)));
        l.tf.runUntil(t1 + RT - 1);
        assertEquals(Dat.EP_STATE_DISCONNECT_PENDING, l.epA.state(), "A waits for the DREP");
        assertEquals(Dat.EP_STATE_DISCONNECTED, l.epB.state(), "B got the DREQ");
        l.tf.run();

        DatEvent e = l.tf.only(l.a.connEvd);
        assertEquals(Dat.CONNECTION_EVENT_DISCONNECTED, e.number);
        assertEquals(t1 + 16 * RT, e.queuedPs, "A disconnected locally after 15 resends");
        assertEquals(Dat.EP_STATE_DISCONNECTED, l.epA.state());
        assertEquals(List.of(Dat.CONNECTION_EVENT_DISCONNECTED), numbers(l.tf, l.b.connEvd), "B only once");
        assertEquals(16, l.handled("B", "DREQ").size());
        assertEquals(16, l.sw.drops(), "B answered each DREQ with a DREP, every one lost");
        assertEquals(15, l.retries().size());
        assertEquals("DREQ", l.tf.events(ConnectionCalls.CM_TIMEOUT, "A").get(0).attrValue("message"));
    }

    @Test
    void everyRtuLostMakesThePassiveAcceptFailAfterTheRetriesWhileTheActiveSideIsConnectedOnce() {
        Lossy l = new Lossy();
        l.listen();
        l.drop("RTU", -1);
        l.connectAt(T0);
        l.acceptAt(T0 + 50 * US);
        l.tf.run();

        DatEvent e = l.tf.only(l.b.connEvd);
        assertEquals(Dat.CONNECTION_EVENT_ACCEPT_COMPLETION_ERROR, e.number);
        assertEquals(T0 + 50 * US + 16 * RT, e.queuedPs);
        assertEquals(Dat.EP_STATE_DISCONNECTED, l.epB.state());
        assertEquals(List.of(Dat.CONNECTION_EVENT_ESTABLISHED), numbers(l.tf, l.a.connEvd));
        assertEquals(16, l.handled("A", "REP").size(), "A answered every REP with an RTU");
        assertEquals(16, l.sw.drops());
    }

    @Test
    void aRepNeverAnsweredGivesUnreachableInTheOfaProfile() {
        Lossy l = new Lossy("provider.cm_timeout_event", "unreachable", "cm.max_retries", "1");
        l.listen();
        l.drop("RTU", -1);
        l.connectAt(T0);
        l.acceptAt(T0 + 50 * US);
        l.tf.run();
        DatEvent e = l.tf.only(l.b.connEvd);
        assertEquals(Dat.CONNECTION_EVENT_UNREACHABLE, e.number);
        assertEquals(T0 + 50 * US + 2 * RT, e.queuedPs);
    }

    @Test
    void aConsumerWhoNeverDecidesSeesOneConnectionRequestAndTheRequesterTimesOut() {
        Lossy l = new Lossy("cm.max_retries", "3");
        l.listen();
        l.connectAt(T0);
        l.tf.run();
        assertEquals(List.of(Dat.CONNECTION_REQUEST_EVENT), numbers(l.tf, l.b.crEvd), "REQs sent again were dropped");
        List<TraceEvent> reqs = l.handled("B", "REQ");
        assertEquals(4, reqs.size());
        assertEquals(Boolean.TRUE, reqs.get(3).attrValue("duplicate"));
        DatEvent e = l.tf.only(l.a.connEvd);
        assertEquals(Dat.CONNECTION_EVENT_TIMED_OUT, e.number);
        assertEquals(T0 + 4 * RT, e.queuedPs);
    }

    @Test
    void theConsumersConnectTimeoutStopsTheResends() {
        Lossy l = new Lossy(); // B never answers; the consumer's timeout, 50 us, comes before cm.response_timeout
        l.listen();
        l.tf.at(T0, () -> ok(l.tf.dat.epConnect(l.epA, "B", QUAL, 50, new byte[0])));
        l.tf.run();
        DatEvent e = l.tf.only(l.a.connEvd);
        assertEquals(Dat.CONNECTION_EVENT_TIMED_OUT, e.number);
        assertEquals(T0 + 50 * US, e.queuedPs);
        assertEquals(List.of(), l.retries());
        assertEquals(T0 + 50 * US, l.tf.sim.now(), "no CM timer left behind");
    }

    @Test
    void freeingAnEndpointStopsItsResends() {
        Lossy l = new Lossy();
        l.listen();
        l.drop("REQ", -1);
        l.connectAt(T0);
        l.tf.at(T0 + RT + RT / 2, () -> ok(l.tf.dat.epFree(l.epA)));
        l.tf.run();
        assertEquals(1, l.retries().size(), "one resend before the free, none after");
        assertEquals(T0 + RT + RT / 2, l.tf.sim.now());
    }

    @Test
    void aDreqOfAnEarlierConnectionSentAgainDoesNotDisconnectTheEndpointsNextConnection() {
        Lossy l = new Lossy();
        l.connected();
        l.drop("DREP", 1);
        long t1 = l.tf.sim.now() + 10 * US;
        TestFabric.Node c = l.tf.open("C");
        Ep epC = l.tf.ep(c);
        l.tf.at(t1, () -> ok(l.tf.dat.epDisconnect(l.epA, Dat.CLOSE_ABRUPT_FLAG)));
        // B, disconnected by A's first DREQ (whose DREP is lost), is reset and accepts C before A sends it again.
        l.tf.at(t1 + 10 * US, () -> {
            assertEquals(Dat.EP_STATE_DISCONNECTED, l.epB.state());
            ok(l.tf.dat.epReset(l.epB));
            ok(l.tf.dat.pspCreate(l.b.ia, 20, l.b.crEvd, 0, new Out<>()));
            ok(l.tf.dat.epConnect(epC, "B", 20, Dat.TIMEOUT_INFINITE, new byte[0]));
        });
        l.tf.at(t1 + 30 * US, () -> ok(l.tf.dat.crAccept(l.tf.only(l.b.crEvd).cr, l.epB, new byte[0])));
        l.tf.run();

        assertEquals(1, l.retries().size());
        assertRetry(l.retries().get(0), "A", l.epA, "DREQ", 1, t1 + RT);
        assertEquals(2, l.handled("B", "DREQ").size(), "B got the DREQ sent again");
        assertEquals(Dat.EP_STATE_CONNECTED, l.epB.state(), "and kept its new connection");
        assertEquals(List.of(Dat.CONNECTION_EVENT_DISCONNECTED, Dat.CONNECTION_EVENT_ESTABLISHED),
                numbers(l.tf, l.b.connEvd));
        assertEquals(List.of(Dat.CONNECTION_EVENT_ESTABLISHED), numbers(l.tf, c.connEvd));
        assertEquals(List.of(Dat.CONNECTION_EVENT_DISCONNECTED), numbers(l.tf, l.a.connEvd));
    }

    // ------------------------------------------------------------------ determinism

    @Test
    void theSameLossesGiveTheSameTrace() {
        List<String> first = lossyRunTrace();
        List<String> second = lossyRunTrace();
        assertEquals(first, second);
        assertNotEquals(0, first.size());
    }

    private static List<String> lossyRunTrace() {
        Lossy l = new Lossy();
        l.listen();
        int[] n = {0};
        // every other CM message, of any kind, for a while
        Predicate<Packet> filter = q -> q.kind == Packet.CM && n[0]++ % 2 == 0 && n[0] < 12;
        l.sw.dropFilter().set(filter);
        l.connectAt(T0);
        l.acceptAt(T0 + RT + 50 * US);
        l.tf.at(T0 + 10 * RT, () -> ok(l.tf.dat.epDisconnect(l.epB, Dat.CLOSE_GRACEFUL_FLAG)));
        l.tf.run();
        assertTrue(l.retries().size() > 1, l.retries()::toString);
        assertEquals(Dat.EP_STATE_DISCONNECTED, l.epA.state());
        assertEquals(Dat.EP_STATE_DISCONNECTED, l.epB.state());
        List<String> out = new ArrayList<>();
        for (TraceEvent e : l.tf.trace) {
            out.add(e.toString());
        }
        return out;
    }
}

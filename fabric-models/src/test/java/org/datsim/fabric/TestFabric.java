package org.datsim.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.datsim.core.engine.RunResult;
import org.datsim.core.engine.Simulator;
import org.datsim.core.engine.StopReason;
import org.datsim.core.param.Params;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.DatHost;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Ep;
import org.datsim.fabric.dat.EpAttributes;
import org.datsim.fabric.dat.Evd;
import org.datsim.fabric.dat.Ia;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.dat.LmrTriplet;
import org.datsim.fabric.dat.Out;
import org.datsim.fabric.dat.Psp;
import org.datsim.fabric.dat.Pz;
import org.datsim.fabric.dat.RmrTriplet;
import org.datsim.fabric.hca.QueuePair;
import org.datsim.fabric.hca.WcStatus;
import org.datsim.fabric.hca.WorkRequest;
import org.datsim.fabric.topology.LinkSpec;
import org.datsim.fabric.topology.Topology;

/**
 * Test harness for the fabric models: builds a {@link Fabric} from host names, switch names and links with the
 * default {@link FabricParams} plus overrides, records every trace event in a list, and offers helpers that drive
 * the {@link DatProvider} directly (open an IA with its PZ and EVDs, create endpoints and LMRs, connect two
 * endpoints through a PSP and dat_cr_accept, post DTOs at chosen simulated times, drain EVDs).
 *
 * <p>Setup helpers call the provider at the simulator's current time and run the simulator until it is idle; tests
 * that care about timing schedule their calls with {@link #at(long, Runnable)} and then {@link #run()}.
 */
public final class TestFabric {

    /** The simulator the fabric runs on. */
    public final Simulator sim = new Simulator();
    /** The resolved fabric parameters. */
    public final Params params;
    /** The fabric. */
    public final Fabric fabric;
    /** Its DAT provider. */
    public final DatProvider dat;
    /** Every trace event fired so far, in firing order. */
    public final List<TraceEvent> trace = new ArrayList<>();

    private long nextConnQual = 5000;

    /**
     * Builds a fabric.
     *
     * @param hosts host names in id order
     * @param switches switch names
     * @param links the links
     * @param overrides parameter overrides as alternating name and value texts
     */
    public TestFabric(List<String> hosts, List<String> switches, List<LinkSpec> links, String... overrides) {
        this.params = params(overrides);
        List<String> problems = new ArrayList<>();
        Topology topology = Topology.build(hosts, switches, links, problems);
        assertTrue(problems.isEmpty(), "topology problems: " + problems);
        assertNotNull(topology);
        TraceSource<TraceEvent> source = new TraceSource<>("test");
        source.subscribe(trace::add);
        this.fabric = new Fabric(sim, topology, params, source);
        this.dat = fabric.provider();
        sim.setMaxEvents(50_000_000L);
    }

    /**
     * Connects two queue pairs of model-level tests (no DAT layer) to each other, both with one listener that hands
     * each requester completion to {@code requestCompleted}, each breakage to {@code broken}, ignores receive
     * completions and allows every remote access.
     *
     * @param qa one queue pair
     * @param qb the other
     * @param requestCompleted called with each completed request
     * @param broken called with the status of each breakage
     */
    public static void connectPair(QueuePair qa, QueuePair qb, Consumer<WorkRequest> requestCompleted,
            IntConsumer broken) {
        QueuePair.Listener l = new QueuePair.Listener() {
            @Override
            public void requestCompleted(WorkRequest wr) {
                requestCompleted.accept(wr);
            }

            @Override
            public void receiveCompleted(WorkRequest wr) {
            }

            @Override
            public void broken(int status) {
                broken.accept(status);
            }

            @Override
            public int checkRemoteAccess(int rkey, long address, long length, boolean write) {
                return WcStatus.SUCCESS;
            }
        };
        qa.setListener(l);
        qb.setListener(l);
        qa.connect(qb);
        qb.connect(qa);
    }

    /**
     * Builds two hosts, A and B, joined back to back by one link.
     *
     * @param overrides parameter overrides as alternating name and value texts
     * @return the harness
     */
    public static TestFabric backToBack(String... overrides) {
        return new TestFabric(List.of("A", "B"), List.of(), List.of(link("A", "B")), overrides);
    }

    /**
     * Builds hosts A, B and C, each linked to the one switch S.
     *
     * @param overrides parameter overrides as alternating name and value texts
     * @return the harness
     */
    public static TestFabric star(String... overrides) {
        return new TestFabric(List.of("A", "B", "C"), List.of("S"),
                List.of(link("A", "S"), link("B", "S"), link("C", "S")), overrides);
    }

    /**
     * Returns the default fabric parameters with overrides applied, failing on any problem.
     *
     * @param overrides alternating name and value texts
     * @return the parameters
     */
    public static Params params(String... overrides) {
        assertEquals(0, overrides.length % 2, "overrides come in name/value pairs");
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < overrides.length; i += 2) {
            map.put(overrides[i], overrides[i + 1]);
        }
        List<String> problems = new ArrayList<>();
        Params p = Params.defaults(FabricParams.ALL).with(map, problems);
        assertTrue(problems.isEmpty(), "parameter problems: " + problems);
        return p;
    }

    /** Returns a link with the fabric-wide bandwidth and latency. */
    public static LinkSpec link(String a, String b) {
        return new LinkSpec(a, b, 0, -1);
    }

    // ------------------------------------------------------------------ return codes

    /** Asserts that a DAT call returned DAT_SUCCESS, naming the return otherwise. */
    public static void ok(int ret) {
        assertEquals(DatReturn.SUCCESS, ret, () -> "expected DAT_SUCCESS, got " + DatReturn.describe(ret));
    }

    /**
     * Asserts a DAT error return exactly: the error class bit, the type and the subtype.
     *
     * @param type the expected type, for example {@link DatReturn#INVALID_STATE}
     * @param subtype the expected subtype, or 0
     * @param ret the return value
     */
    public static void assertError(int type, int subtype, int ret) {
        assertEquals(DatReturn.CLASS_ERROR, ret & DatReturn.CLASS_ERROR,
                () -> "error class bit missing in " + Integer.toHexString(ret));
        assertEquals(DatReturn.describe(DatReturn.error(type, subtype)), DatReturn.describe(ret));
        assertEquals(type, DatReturn.type(ret));
        assertEquals(subtype, DatReturn.subtype(ret));
        assertEquals(DatReturn.CLASS_ERROR | type | subtype, ret);
    }

    // ------------------------------------------------------------------ objects

    /** One consumer's open IA on a host, with a PZ and EVDs for each stream. */
    public static final class Node {
        /** The host. */
        public final DatHost host;
        /** The IA. */
        public final Ia ia;
        /** A protection zone. */
        public final Pz pz;
        /** An EVD for request completions. */
        public final Evd reqEvd;
        /** An EVD for receive completions. */
        public final Evd recvEvd;
        /** An EVD for connection events. */
        public final Evd connEvd;
        /** An EVD for connection requests. */
        public final Evd crEvd;

        Node(DatHost host, Ia ia, Pz pz, Evd reqEvd, Evd recvEvd, Evd connEvd, Evd crEvd) {
            this.host = host;
            this.ia = ia;
            this.pz = pz;
            this.reqEvd = reqEvd;
            this.recvEvd = recvEvd;
            this.connEvd = connEvd;
            this.crEvd = crEvd;
        }

        /** Returns the host name. */
        public String name() {
            return host.name();
        }
    }

    /** Returns the provider state of a host. */
    public DatHost host(String name) {
        DatHost h = dat.host(name);
        assertNotNull(h, "no host " + name);
        return h;
    }

    /**
     * Opens an IA on a host with a PZ and four EVDs of queue length 256.
     *
     * @param hostName the host
     * @return the opened node
     */
    public Node open(String hostName) {
        DatHost h = host(hostName);
        Out<Ia> ia = new Out<>();
        ok(dat.iaOpen(h, DatHost.DEFAULT_IA_NAME, 64, ia));
        Out<Pz> pz = new Out<>();
        ok(dat.pzCreate(ia.get(), pz));
        return new Node(h, ia.get(), pz.get(), evd(ia.get(), 256, Dat.EVD_DTO_FLAG),
                evd(ia.get(), 256, Dat.EVD_DTO_FLAG), evd(ia.get(), 256, Dat.EVD_CONNECTION_FLAG),
                evd(ia.get(), 256, Dat.EVD_CR_FLAG));
    }

    /** Creates an EVD, asserting success. */
    public Evd evd(Ia ia, int qlen, int flags) {
        Out<Evd> e = new Out<>();
        ok(dat.evdCreate(ia, qlen, flags, e));
        return e.get();
    }

    /** Creates an endpoint with default attributes on a node's PZ and EVDs. */
    public Ep ep(Node n) {
        return ep(n, null);
    }

    /** Creates an endpoint with the given attributes (null for defaults) on a node's PZ and EVDs. */
    public Ep ep(Node n, EpAttributes attr) {
        Out<Ep> ep = new Out<>();
        ok(dat.epCreate(n.ia, n.pz, n.recvEvd, n.reqEvd, n.connEvd, attr, ep));
        return ep.get();
    }

    /** Registers a fresh buffer of {@code length} bytes in the node's PZ. */
    public Lmr lmr(Node n, long length, int privileges) {
        return lmr(n, n.pz, length, privileges);
    }

    /** Registers a fresh buffer of {@code length} bytes in a given PZ. */
    public Lmr lmr(Node n, Pz pz, long length, int privileges) {
        Out<Lmr> l = new Out<>();
        ok(dat.lmrCreate(n.ia, -1, length, pz, privileges, l));
        return l.get();
    }

    /** Returns a one-segment local IOV covering {@code len} bytes at offset {@code off} of an LMR. */
    public static LmrTriplet[] iov(Lmr l, long off, long len) {
        return new LmrTriplet[] {seg(l, off, len)};
    }

    /** Returns a local segment at offset {@code off} of an LMR. */
    public static LmrTriplet seg(Lmr l, long off, long len) {
        return new LmrTriplet(l.lmrContext(), l.address() + off, len);
    }

    /** Returns a remote segment at offset {@code off} of a (peer's) LMR. */
    public static RmrTriplet remote(Lmr l, long off, long len) {
        return new RmrTriplet(l.rmrContext(), l.address() + off, len);
    }

    // ------------------------------------------------------------------ connections

    /**
     * Connects {@code a} to {@code b}: {@code b}'s node listens on a fresh connection qualifier, {@code a}
     * connects, the request is accepted, and both sides see DAT_CONNECTION_EVENT_ESTABLISHED. The service point is
     * freed afterwards and the connect EVDs are left empty.
     *
     * @param na the active side's node
     * @param a the active endpoint
     * @param nb the passive side's node
     * @param b the passive endpoint
     */
    public void connect(Node na, Ep a, Node nb, Ep b) {
        long qual = nextConnQual++;
        Out<Psp> psp = new Out<>();
        ok(dat.pspCreate(nb.ia, qual, nb.crEvd, 0, psp));
        ok(dat.epConnect(a, nb.name(), qual, Dat.TIMEOUT_INFINITE, new byte[] {1, 2, 3}));
        runUntilCmResend();
        DatEvent req = only(nb.crEvd);
        assertEquals(Dat.CONNECTION_REQUEST_EVENT, req.number);
        assertEquals(qual, req.cr.connQual());
        ok(dat.crAccept(req.cr, b, new byte[0]));
        run();
        assertEquals(Dat.CONNECTION_EVENT_ESTABLISHED, only(na.connEvd).number);
        assertEquals(Dat.CONNECTION_EVENT_ESTABLISHED, only(nb.connEvd).number);
        assertEquals(Dat.EP_STATE_CONNECTED, a.state());
        assertEquals(Dat.EP_STATE_CONNECTED, b.state());
        ok(dat.pspFree(psp.get()));
    }

    /** A connected pair of endpoints on hosts A and B of a back-to-back fabric, with their nodes. */
    public static final class Pair {
        /** The harness. */
        public final TestFabric tf;
        /** Host A's node. */
        public final Node a;
        /** Host B's node. */
        public final Node b;
        /** The active endpoint on A. */
        public final Ep epA;
        /** The passive endpoint on B. */
        public final Ep epB;

        Pair(TestFabric tf, Node a, Node b, Ep epA, Ep epB) {
            this.tf = tf;
            this.a = a;
            this.b = b;
            this.epA = epA;
            this.epB = epB;
        }
    }

    /**
     * Opens host {@code from} and host {@code to}, creates one endpoint on each and connects them.
     *
     * @param from the active host
     * @param to the passive host
     * @param attrA attributes of the active endpoint, or null
     * @param attrB attributes of the passive endpoint, or null
     * @return the connected pair
     */
    public Pair connectedPair(String from, String to, EpAttributes attrA, EpAttributes attrB) {
        Node a = open(from);
        Node b = open(to);
        Ep epA = ep(a, attrA);
        Ep epB = ep(b, attrB);
        connect(a, epA, b, epB);
        return new Pair(this, a, b, epA, epB);
    }

    /** Returns a back-to-back fabric with a connected pair A→B using default endpoint attributes. */
    public static Pair pair(String... overrides) {
        TestFabric tf = backToBack(overrides);
        return tf.connectedPair("A", "B", null, null);
    }

    // ------------------------------------------------------------------ simulation

    /** Schedules an action at an absolute simulated time. */
    public void at(long timePs, Runnable action) {
        sim.scheduleAt(timePs, action);
    }

    /** Runs the simulator until no events remain, failing if it stopped for any other reason. */
    public void run() {
        RunResult r = sim.run();
        assertEquals(StopReason.NO_EVENTS, r.reason(), r.message());
    }

    /**
     * Runs every event that comes before the connection manager would send a message again ({@code
     * cm.response_timeout} from now), leaving the clock at the last one: until idle but for the CM's resend timers.
     * For a test that plays a consumer who answers a connection request only once nothing else happens: with
     * {@link #run()} the requester would send its REQ again, and time out after {@code cm.max_retries}.
     */
    public void runUntilCmResend() {
        long resend = sim.now() + params.get(FabricParams.CM_RESPONSE_TIMEOUT);
        RunResult r = sim.runWhile(() -> sim.nextEventTimePs() < resend);
        assertTrue(r.reason() == StopReason.STOPPED || r.reason() == StopReason.NO_EVENTS, r.message());
    }

    /** Runs every event up to and including an absolute simulated time, leaving the clock there. */
    public void runUntil(long timePs) {
        RunResult r = sim.runUntil(timePs);
        assertTrue(r.reason() == StopReason.UNTIL_TIME || r.reason() == StopReason.NO_EVENTS, r.message());
    }

    /** Dequeues every event of an EVD, in order. */
    public List<DatEvent> drain(Evd evd) {
        List<DatEvent> out = new ArrayList<>();
        Out<DatEvent> e = new Out<>();
        while (dat.evdDequeue(evd, e) == DatReturn.SUCCESS) {
            out.add(e.get());
        }
        return out;
    }

    /** Dequeues the events of an EVD and asserts there was exactly one. */
    public DatEvent only(Evd evd) {
        List<DatEvent> events = drain(evd);
        assertEquals(1, events.size(), () -> "expected one event, got " + describe(events));
        return events.get(0);
    }

    /** Describes events for failure messages. */
    public static String describe(List<DatEvent> events) {
        List<String> out = new ArrayList<>();
        for (DatEvent e : events) {
            out.add(e.numberName() + (e.status >= 0 ? "/" + e.statusName() : "") + " cookie=" + e.cookie + " @"
                    + e.queuedPs);
        }
        return out.toString();
    }

    /** Returns the statuses of DTO completion events, in order. */
    public static List<Integer> statuses(List<DatEvent> events) {
        List<Integer> out = new ArrayList<>();
        for (DatEvent e : events) {
            assertEquals(Dat.DTO_COMPLETION_EVENT, e.number, e.numberName());
            out.add(e.status);
        }
        return out;
    }

    /** Returns the cookies of events, in order. */
    public static List<Long> cookies(List<DatEvent> events) {
        List<Long> out = new ArrayList<>();
        for (DatEvent e : events) {
            out.add(e.cookie);
        }
        return out;
    }

    /** Returns the numbers of events, in order. */
    public static List<Integer> numbers(List<DatEvent> events) {
        List<Integer> out = new ArrayList<>();
        for (DatEvent e : events) {
            out.add(e.number);
        }
        return out;
    }

    /** Returns the trace events of a kind at a host, in firing order. */
    public List<TraceEvent> events(String kind, String host) {
        List<TraceEvent> out = new ArrayList<>();
        for (TraceEvent e : trace) {
            if (e.kind().equals(kind) && (host == null || host.equals(e.host()))) {
                out.add(e);
            }
        }
        return out;
    }

    /** Returns the one trace event of a kind at a host for an operation, failing if there is not exactly one. */
    public TraceEvent event(String kind, String host, long op) {
        List<TraceEvent> out = new ArrayList<>();
        for (TraceEvent e : events(kind, host)) {
            if (e.op() == op) {
                out.add(e);
            }
        }
        assertEquals(1, out.size(), () -> "expected one " + kind + " event at " + host + " for op " + op + ": "
                + out);
        return out.get(0);
    }

    // ------------------------------------------------------------------ posting

    /** Posts an RDMA Write, asserting success, and returns its operation id. */
    public long write(Ep ep, LmrTriplet[] iov, long cookie, RmrTriplet target, int flags) {
        Out<Long> op = new Out<>();
        ok(dat.postRdmaWrite(ep, iov, cookie, target, flags, op));
        return op.get();
    }

    /** Posts an RDMA Read, asserting success, and returns its operation id. */
    public long read(Ep ep, LmrTriplet[] iov, long cookie, RmrTriplet source, int flags) {
        Out<Long> op = new Out<>();
        ok(dat.postRdmaRead(ep, iov, cookie, source, flags, op));
        return op.get();
    }

    /** Posts a Send, asserting success, and returns its operation id. */
    public long send(Ep ep, LmrTriplet[] iov, long cookie, int flags) {
        Out<Long> op = new Out<>();
        ok(dat.postSend(ep, iov, cookie, flags, op));
        return op.get();
    }

    /** Posts a receive, asserting success, and returns its operation id. */
    public long recv(Ep ep, LmrTriplet[] iov, long cookie) {
        Out<Long> op = new Out<>();
        ok(dat.postRecv(ep, iov, cookie, 0, op));
        return op.get();
    }

    // ------------------------------------------------------------------ memory

    /** Returns {@code len} pseudo-random bytes, none of them zero. */
    public static byte[] randomBytes(int len, long seed) {
        byte[] b = new byte[len];
        Random r = new Random(seed);
        for (int i = 0; i < len; i++) {
            b[i] = (byte) (1 + r.nextInt(255));
        }
        return b;
    }

    /** Writes bytes into an LMR at an offset through the CPU. */
    public static void cpuWrite(Node n, Lmr l, long off, byte[] data) {
        n.host.memory().cpuWrite(l.address() + off, data);
    }

    /** Reads bytes of an LMR at an offset through the CPU. */
    public static byte[] cpuRead(Node n, Lmr l, long off, int len) {
        return n.host.memory().cpuRead(l.address() + off, len);
    }
}

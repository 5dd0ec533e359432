package org.datsim.scenario.bridge;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.engine.Simulator;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.time.SimTime;
import org.datsim.core.trace.JsonLinesTraceWriter;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.dat.DatHost;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.memory.Coherence;
import org.datsim.scenario.load.Scenario;

/**
 * {@code datsim serve}: the simulated fabric of a scenario file, with real programs attached to its hosts through
 * the provider library (docs/bridge.md). One thread runs the simulator and every attached program's connection: it
 * runs events while no attached program holds simulated time, and otherwise serves the program that holds it. Another
 * thread, the {@link Acceptor}, accepts connections and reads and checks their handshakes, so that a connection that
 * is silent or malformed ends alone and holds nobody up; the simulator's thread answers the checked handshakes.
 */
public final class BridgeServer {

    /** The static IA name of every host's HCA port in datsim's provider. */
    static final String IA_NAME = "ofa-v2-ib0";

    private final Scenario scenario;
    private final Simulator sim = new Simulator();
    private final TraceSource<TraceEvent> trace = new TraceSource<>("datsim");
    private final Fabric fabric;
    private final Path socket;
    private final long graceNs;
    private final int expected;
    private final PrintWriter log;
    private final List<BridgeProcess> processes = new ArrayList<>();
    private final List<BridgeProcess> detachedList = new ArrayList<>();
    private long calls;
    private long errors;
    /** Calls answered DAT_QUEUE_EMPTY: empty polls, counted apart from errors. */
    private long emptyPolls;
    private int attached;
    private int finished;
    private volatile boolean stop;
    /** The programs attached (their first connections) and their tokens, index for index. */
    private final List<BridgeProcess> programs = new ArrayList<>();
    private final List<byte[]> tokens = new ArrayList<>();
    /** The server's own directory of shared-memory rings, or null (every connection on its socket). */
    private RingsDir rings;
    /** The listening socket, once bound. */
    private SocketFile bound;
    /** The most wall time a connection has for its handshake. */
    private long handshakeNs = Acceptor.HANDSHAKE_NS;
    /** The most wall time a write waits for its program to read (0: {@link #memoryTimeoutNs}). */
    private long writeTimeoutNs;
    /** The dat.conf and provider library {@link #writeDatConf} wrote and named (for datsim exec). */
    private Path datConf;
    private Path library;
    /** serve --record: the recorder and its file, or null. */
    private Recorder recorder;
    private Path recordFile;
    /** --cpu-scale in millionths: the simulated time a program's measured CPU time between calls counts for. */
    private long cpuScalePpm;
    /** --spin-us: the longest either side of a shared-memory connection spins before it sleeps (microseconds). */
    private int spinUs = DEFAULT_SPIN_US;
    /** The default of {@link #spinUs(int)}. */
    public static final int DEFAULT_SPIN_US = 50;

    /**
     * Prepares a server.
     *
     * @param scenario the scenario whose fabric to simulate (its processes, if any, are not run)
     * @param socket the Unix domain socket to listen on
     * @param graceMs wall time a program may spend between two DAT calls before it stops holding simulated time
     * @param expected how many programs to wait for before simulated time starts; the server ends when that many
     *     have come and gone (0: serve until stopped)
     * @param log where messages go
     */
    public BridgeServer(Scenario scenario, Path socket, long graceMs, int expected, PrintWriter log) {
        this.scenario = scenario;
        this.fabric = new Fabric(sim, scenario.topology(), scenario.params(), scenario.hostParams(),
                new RandomStreams(scenario.seed()), trace);
        this.socket = socket;
        this.graceNs = graceMs * 1_000_000L;
        this.expected = expected;
        this.log = log;
    }

    /**
     * Makes the time a program spends between two calls count as its measured thread CPU time times {@code scale}
     * (0, the default: not at all, which keeps runs deterministic).
     *
     * @param scale the factor, from 0 to 1000, kept to a millionth
     */
    public void cpuScale(double scale) {
        if (!(scale >= 0 && scale <= 1000)) {
            throw new IllegalArgumentException("cpu scale " + scale + " is not between 0 and 1000");
        }
        cpuScalePpm = Math.round(scale * 1_000_000);
    }

    /**
     * Sets how long, at most, the server and the library spin on a shared-memory connection's rings before they
     * sleep on its socket for a wake token (docs/bridge.md, Protocol); 0: they never spin.
     *
     * @param us microseconds, from 0 to 100000
     */
    public void spinUs(int us) {
        if (us < 0 || us > 100_000) {
            throw new IllegalArgumentException("spin of " + us + " us is not between 0 and 100000");
        }
        spinUs = us;
    }

    /**
     * Records the calls of every attached program as a scenario that datsim run replays, written to {@code file}
     * when the server ends.
     *
     * @param source the served scenario file's JSON (its fabric, seed and vars go into the recording)
     * @param file the scenario file to write
     */
    public void record(com.fasterxml.jackson.databind.JsonNode source, Path file) {
        recorder = new Recorder(source, scenario.name());
        recordFile = file;
    }

    Recorder recorder() {
        return recorder;
    }

    /** Returns the simulated time (ps) that {@code cpuNs} of a program's CPU time between two calls counts for. */
    long cpuPs(long cpuNs) {
        return cpuNs <= 0 || cpuScalePpm == 0 ? 0 : (long) Math.min(cpuNs * (double) cpuScalePpm / 1000, 1e18);
    }

    Simulator sim() {
        return sim;
    }

    DatProvider dat() {
        return fabric.provider();
    }

    /** The program attached to a host that is detached (outside DAT calls past the grace period), or null. */
    BridgeProcess detachedOn(int hostId) {
        for (BridgeProcess p : processes) {
            if (!p.closed() && p.detached() && p.host().id() == hostId) {
                return p;
            }
        }
        return null;
    }

    long graceNs() {
        return graceNs;
    }

    /** The most wall time to wait for a program to answer a memory request or to come back into a call. */
    long memoryTimeoutNs() {
        return Math.max(graceNs, 10_000_000_000L);
    }

    String iaNameFor(String programName) {
        return IA_NAME;
    }

    /** Returns a host's name by id ("" for none, which datsim's provider finds unreachable). */
    String hostName(int id) {
        List<String> hosts = scenario.topology().hosts();
        return id >= 0 && id < hosts.size() ? hosts.get(id) : "";
    }

    void trace(TraceEvent e, int ret) {
        if (TraceEvent.CALL.equals(e.kind())) {
            calls++;
            if (DatReturn.type(ret) == DatReturn.QUEUE_EMPTY) {
                emptyPolls++; // a dequeue (or CNO wait) that found nothing: how polling works, not an error
            } else if (!DatReturn.isSuccess(ret)) {
                errors++;
            }
        }
        trace.fire(e);
    }

    /** Says one line (from the simulator's thread or the acceptor's). */
    void message(String text) {
        synchronized (log) {
            log.println("datsim serve: " + text);
            log.flush();
        }
    }

    void detachedNow(BridgeProcess p) {
        detachedList.add(p);
    }

    void closed(BridgeProcess p, String where) {
        if (!p.isProgram()) {
            message("a thread of pid " + p.pid() + " (" + p.name() + ") left " + where + " at "
                    + SimTime.format(sim.now()) + " after " + p.calls() + " calls");
            return;
        }
        finished++;
        message("process on host " + p.host().name() + " (pid " + p.pid() + ") left " + where + " at "
                + SimTime.format(sim.now()) + " after " + p.calls() + " calls");
    }

    /** Thrown when the socket cannot be made where it was asked for (something else is there, or it is live). */
    public static final class SocketRefused extends IOException {
        private static final long serialVersionUID = 1L;

        SocketRefused(String message) {
            super(message);
        }
    }

    /**
     * Binds the socket now (else {@link #serve} does): its name is linked only if nothing but a stale socket of this
     * user is there (docs/bridge.md, Security).
     *
     * @throws SocketRefused when it cannot be
     */
    public void listen() throws SocketRefused {
        if (bound != null) {
            return;
        }
        try {
            bound = SocketFile.bind(socket);
        } catch (IOException e) {
            throw new SocketRefused(e.getMessage());
        }
    }

    /** Stops the server at its next look at the sockets (from another thread, e.g. a shutdown hook). */
    public void stop() {
        stop = true;
    }

    /**
     * Writes the dat.conf naming each host's provider entry ({@code datsim-HOST}) with the library and the socket.
     *
     * @param datConf the file to write
     * @param library the provider library's path
     * @throws IOException if it cannot be written
     */
    public void writeDatConf(Path datConf, Path library) throws IOException {
        StringBuilder b = new StringBuilder("# written by datsim serve: one entry per simulated host\n");
        for (String h : scenario.topology().hosts()) {
            b.append("datsim-").append(h).append(" u2.0 nonthreadsafe default ").append(library.toAbsolutePath())
                    .append(" dapl.2.0 \"").append(h).append(' ').append(socket.toAbsolutePath()).append("\" \"\"\n");
        }
        Files.writeString(datConf, b.toString());
        this.datConf = datConf.toAbsolutePath();
        this.library = library.toAbsolutePath();
    }

    /** Returns "HOST ADDRESS" lines, one per host. */
    public List<String> addresses() {
        List<String> out = new ArrayList<>();
        List<String> hosts = scenario.topology().hosts();
        for (int i = 0; i < hosts.size(); i++) {
            out.add(hosts.get(i) + " " + Protocol.dotted(i));
        }
        return out;
    }

    /**
     * Serves until {@code expected} programs have come and gone (or {@link #stop}), writing events.jsonl into the
     * output directory.
     *
     * @param outDir the output directory (created)
     * @return 0, or 1 when a program left while blocked or a wait had to be broken
     * @throws IOException if the socket or the trace cannot be opened
     */
    public int serve(Path outDir) throws IOException {
        Files.createDirectories(outDir);
        int problems = 0;
        Thread acceptorThread = null;
        Acceptor acceptor = null;
        listen();
        rings = RingsDir.open(this::message);
        try (SocketFile server = bound;
                Selector sleep = Selector.open();
                JsonLinesTraceWriter writer = new JsonLinesTraceWriter(outDir.resolve("events.jsonl"))) {
            trace.subscribe(writer);
            acceptor = new Acceptor(server, this::message, sleep, handshakeNs);
            acceptorThread = new Thread(acceptor, "datsim serve: handshakes");
            acceptorThread.setDaemon(true);
            acceptorThread.start();
            long[] tick = {0};
            long idleSince = -1;
            while (!stop && !(expected > 0 && finished >= expected && attached >= expected)) {
                takeHandshakes(acceptor);
                for (int i = detachedList.size() - 1; i >= 0; i--) {
                    BridgeProcess p = detachedList.get(i);
                    p.poll();
                    if (!p.detached() || p.closed()) {
                        detachedList.remove(i);
                    }
                }
                boolean started = attached >= expected && attached > 0;
                // Before the expected programs are all there, time passes only for the calls of those that are:
                // a wait's timeout cannot expire while the program it waits for has not started yet.
                if (sim.pendingCount() > 0 && (started || anyActive())) {
                    idleSince = -1;
                    sim.runWhile(() -> (++tick[0] & 1023) != 0 && (attached >= expected || anyActive()));
                    for (int i = 0; i < processes.size(); i++) {
                        processes.get(i).flush();
                    }
                    continue;
                }
                // Nothing to run: wait for a program, or break a deadlock (every live program blocked in a wait
                // that no event can end).
                if (started && detachedList.isEmpty() && allWaiting()) {
                    if (idleSince < 0) {
                        idleSince = System.nanoTime();
                    } else if (System.nanoTime() - idleSince > Math.max(graceNs, 1_000_000_000L)) {
                        message("every program is blocked in a wait that nothing can end (at "
                                + SimTime.format(sim.now()) + "); their waits return DAT_TIMEOUT_EXPIRED");
                        problems++;
                        for (BridgeProcess p : processes) {
                            p.breakDeadlock();
                        }
                        idleSince = -1;
                        continue;
                    }
                }
                sleep.select(detachedList.isEmpty() ? 50 : 1);
                sleep.selectedKeys().clear();
            }
        } finally {
            if (acceptor != null) {
                acceptor.stop();
                try {
                    acceptorThread.join(5_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (rings != null) {
                rings.close();
            }
        }
        if (recorder != null) {
            recorder.write(recordFile);
            message("recorded the programs' calls in " + recordFile + " (replay: datsim run " + recordFile + ")"
                    + (recorder.unrecorded().isEmpty() ? ""
                            : "; not recorded, as the scenario format has no form for them: "
                                    + String.join(", ", recorder.unrecorded())));
        }
        message("simulated " + SimTime.format(sim.now()) + ", " + sim.eventsExecuted() + " events, " + calls
                + " calls (" + errors + " returned errors" + (emptyPolls == 0 ? "" : ", " + emptyPolls
                + " empty polls (DAT_QUEUE_EMPTY, not errors)") + "); trace in " + outDir.resolve("events.jsonl"));
        return problems == 0 ? 0 : 1;
    }

    /** Whether a program is inside a call that is not a wait (its CPU time is passing). */
    private boolean anyActive() {
        for (int i = 0; i < processes.size(); i++) {
            BridgeProcess p = processes.get(i);
            if (!p.closed() && !p.waiting() && !p.detached()) {
                return true;
            }
        }
        return false;
    }

    private boolean allWaiting() {
        boolean any = false;
        for (BridgeProcess p : processes) {
            if (!p.closed()) {
                if (!p.waiting()) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }

    /** Serves the handshakes the acceptor read and checked, in the order they came. */
    private void takeHandshakes(Acceptor acceptor) {
        Acceptor.Accepted a;
        while ((a = acceptor.poll()) != null) {
            Wire w;
            try {
                w = new Wire(a.channel(), a.after());
            } catch (IOException e) {
                message("connection " + a.number() + " failed (" + e.getMessage() + "); closed");
                closeQuietly(a.channel());
                continue;
            }
            w.writeTimeoutNs(writeTimeoutNs());
            Handshake h = a.handshake();
            try {
                switch (h.code()) {
                    case Protocol.C_SIDE -> side(w, a.number(), h);
                    case Protocol.C_THREAD -> thread(w, a.number(), h);
                    case Protocol.C_INFO -> {
                        info(w);
                        w.close();
                    }
                    default -> hello(w, a.number(), h);
                }
            } catch (IOException e) {
                message("connection " + a.number() + " failed in its handshake (" + e.getMessage() + "); closed");
                w.close();
            }
        }
    }

    /** The most wall time a write to a program waits for it to read (the same bound as a wait for its answer). */
    long writeTimeoutNs() {
        return writeTimeoutNs > 0 ? writeTimeoutNs : memoryTimeoutNs();
    }

    /**
     * Sets the most wall time a connection has for its handshake and a write for its program to read (tests; the
     * defaults: {@link Acceptor#HANDSHAKE_NS}, and the longer of the grace period and 10 s).
     */
    void timeouts(long handshakeMs, long writeMs) {
        handshakeNs = handshakeMs * 1_000_000L;
        writeTimeoutNs = writeMs * 1_000_000L;
    }

    /** The attached program whose token this is (compared in constant time), or null. */
    private BridgeProcess program(byte[] token) {
        BridgeProcess found = null;
        for (int i = 0; i < programs.size(); i++) {
            if (Handshake.sameToken(tokens.get(i), token)) {
                found = programs.get(i);
            }
        }
        return found == null || found.closed() ? null : found;
    }

    /** Attaches a program's side channel (Protocol.C_SIDE: the program's token). */
    private void side(Wire w, int number, Handshake h) {
        BridgeProcess program = program(h.token());
        if (program == null) {
            message("connection " + number + " named no attached program's token for a side channel; closed");
            w.close();
            return;
        }
        program.side(w);
    }

    /** Attaches a further thread of an attached program (Protocol.C_THREAD: the program's token). */
    private void thread(Wire w, int number, Handshake h) throws IOException {
        BridgeProcess program = program(h.token());
        if (program == null) {
            ByteBuffer r = w.begin(Protocol.S_REPLY);
            r.putLong(sim.now());
            message("refused a thread connection (connection " + number + "): its token is no attached program's");
            r.putInt(DatReturn.PROVIDER_NOT_FOUND);
            w.send();
            w.close();
            return;
        }
        SharedRings offer = h.wantsRings() ? newRings(w, "a thread of pid " + program.pid()) : null;
        ByteBuffer r = w.begin(Protocol.S_REPLY);
        r.putLong(sim.now());
        r.putInt(DatReturn.SUCCESS).putInt(spinUs);
        putRings(w, offer);
        sendOrRelease(w, offer);
        BridgeProcess p = new BridgeProcess(program, w);
        processes.add(p);
        message("pid " + p.pid() + ": another thread attached (" + p.name() + ") at " + SimTime.format(sim.now())
                + transport(offer));
        p.start(sim.now());
    }

    /** Attaches a program to the host its hello names (Protocol.C_HELLO), or refuses it with one message. */
    private void hello(Wire w, int number, Handshake h) throws IOException {
        String hostName = h.host();
        int pid = h.pid();
        DatHost host = fabric.provider().host(hostName);
        String refusal = null;
        if (host == null) {
            refusal = "host \"" + org.datsim.core.util.Text.clean(hostName) + "\" is not in the fabric (hosts: "
                    + String.join(", ", scenario.topology().hosts()) + ")";
        } else if (host.memory().coherence() != Coherence.COHERENT) {
            refusal = "host " + hostName + " is not CPU/IO coherent; real programs attach to coherent hosts only";
        } else {
            for (BridgeProcess p : processes) {
                if (!p.closed() && p.host() == host) {
                    refusal = "host " + hostName + " already has a program attached (pid " + p.pid()
                            + "); one per host";
                }
            }
        }
        if (refusal != null) {
            ByteBuffer r = w.begin(Protocol.S_REPLY);
            r.putLong(sim.now());
            message("refused pid " + pid + " (connection " + number + "): " + refusal);
            r.putInt(DatReturn.PROVIDER_NOT_FOUND);
            w.send();
            w.close();
            return;
        }
        SharedRings offer = h.wantsRings() ? newRings(w, "pid " + pid) : null;
        byte[] token = Handshake.newToken();
        ByteBuffer r = w.begin(Protocol.S_REPLY);
        r.putLong(sim.now());
        r.putInt(DatReturn.SUCCESS).putInt(Protocol.ipOf(host.id()));
        w.room(Handshake.TOKEN_BYTES + 12).put(token).putLong(cpuScalePpm).putInt(spinUs);
        putRings(w, offer);
        sendOrRelease(w, offer);
        BridgeProcess p = new BridgeProcess(this, w, host,  pid,
                scenario.hostParams().getOrDefault(hostName, scenario.params()));
        processes.add(p);
        programs.add(p);
        tokens.add(token);
        attached++;
        message("pid " + pid + " attached to host " + hostName + " (" + Protocol.dotted(host.id()) + ") at "
                + SimTime.format(sim.now()) + transport(offer));
        p.start(sim.now());
    }

    /** Creates the rings offered to a connection, or says in one message why it stays on the socket (null). */
    private SharedRings newRings(Wire w, String who) {
        if (rings == null) {
            return null;
        }
        try {
            return rings.create(w.waker());
        } catch (IOException | RuntimeException e) {
            message("cannot make shared memory for " + who + " (" + e.getMessage() + "): it uses the socket");
            return null;
        }
    }

    /** Ends a handshake's reply with the rings' path (u32 length, UTF-8; 0: none, the socket). */
    private static void putRings(Wire w, SharedRings offer) {
        byte[] b = offer == null ? new byte[0] : offer.path().toString().getBytes(StandardCharsets.UTF_8);
        w.room(4 + b.length).putInt(b.length).put(b);
    }

    /** Sends a handshake's reply and offers its rings; deletes their file if the reply cannot be sent. */
    private void sendOrRelease(Wire w, SharedRings offer) throws IOException {
        try {
            w.send();
        } catch (IOException e) {
            if (offer != null) {
                rings.release(offer.path());
            }
            throw e;
        }
        if (offer != null) {
            w.offerShared(offer, spinUs, taken -> rings.release(taken.path()));
        }
    }

    /** Answers datsim exec: the dat.conf, the provider library and the hosts (Protocol.C_INFO). */
    private void info(Wire w) throws IOException {
        ByteBuffer r = w.begin(Protocol.S_REPLY);
        r.putLong(sim.now()).putInt(DatReturn.SUCCESS);
        List<String> names = new ArrayList<>();
        names.add(datConf == null ? "" : datConf.toString());
        names.add(library == null ? "" : library.toString());
        for (String s : names) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            w.room(4 + b.length).putInt(b.length).put(b);
        }
        List<String> hosts = scenario.topology().hosts();
        w.room(4).putInt(hosts.size());
        for (String h : hosts) {
            byte[] b = h.getBytes(StandardCharsets.UTF_8);
            w.room(4 + b.length).putInt(b.length).put(b);
        }
        w.send();
    }

    private static String transport(SharedRings offer) {
        return offer != null ? ", through shared memory" : ", through the socket";
    }

    private static void closeQuietly(java.nio.channels.SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}

package org.datsim.scenario.bridge;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.Selector;
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
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
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
    private final Simulator sim;
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
    /** Answers the checked handshakes; made when serving starts. */
    private Attacher attacher;
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
        // the fabric's owners: events of equal time in owner-key order, as in a scenario run (ScenarioRunner)
        this.sim = new Simulator(org.datsim.fabric.FabricPartition.owners(scenario.topology()));
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
        RingsDir rings = RingsDir.open(this::message);
        attacher = new Attacher(this, rings);
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
                attacher.take(acceptor);
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
            attacher.close();
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

    /** The scenario served. */
    Scenario scenario() {
        return scenario;
    }

    /** The connections served, programs and their threads. */
    List<BridgeProcess> processes() {
        return processes;
    }

    /** Adds a program's connection (its first, when {@code program}; else a further thread's). */
    void attachedNow(BridgeProcess p, boolean program) {
        processes.add(p);
        if (program) {
            attached++;
        }
    }

    int spinUs() {
        return spinUs;
    }

    long cpuScalePpm() {
        return cpuScalePpm;
    }

    /** The dat.conf and provider library {@link #writeDatConf} named, or null. */
    Path datConf() {
        return datConf;
    }

    Path library() {
        return library;
    }
}

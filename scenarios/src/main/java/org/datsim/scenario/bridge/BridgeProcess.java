package org.datsim.scenario.bridge;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.engine.SimProcess;
import org.datsim.core.param.Params;
import org.datsim.core.time.SimTime;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.dat.Cr;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.DatHost;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Ep;
import org.datsim.fabric.dat.Ia;
import org.datsim.scenario.consumer.BlockedWait;
import org.datsim.scenario.consumer.CpuCosts;
import org.datsim.scenario.consumer.DequeueLine;
import org.datsim.scenario.consumer.HandleTable;

/**
 * A real program attached to a host of the simulated fabric through {@code provider/libdatsim.so}: a consumer
 * process whose calls come over a socket instead of from a scenario's steps. This class is the connection's life:
 * reading a request, charging its CPU cost before it runs, the reply's framing, the trace and the recording, the
 * program's end. A request is decoded once ({@link RequestDecoder}) into a typed {@link BridgeCall}, which
 * {@link BridgeCalls} executes on the fabric's {@link DatProvider} as a scenario process makes the same call, at the
 * same CPU cost ({@link CpuCosts}: the cost each {@link Request} shares with its scenario call) and traced the same
 * way ({@link DequeueLine}), and which {@link Recorder} writes for {@code serve --record}; dat_evd_wait and
 * dat_cno_wait block in simulated time as a scenario's do ({@link BridgeWait}).
 *
 * <p>Virtual time (docs/bridge.md): while the program is between two calls, this process reads its next request
 * inside {@link #resume}, so the simulator cannot run past the program's clock; if no request comes within the
 * grace period of wall time, the process lets go ({@link #detached}) and the server wakes it when one comes.
 *
 * <p>Real bytes: the host's memory is this program's for the ranges it registered ({@link ProgramMemory}), read and
 * written at the simulated times of the DMA, while the program is blocked in a call.
 */
final class BridgeProcess extends SimProcess implements BlockedWait.Timers {

    private final BridgeServer server;
    private final Wire wire;
    /** The side channel, served by a thread of the library: memory while the program runs outside calls. */
    private Wire side;
    private final DatHost host;
    private final int pid;
    /** What calls cost the program's CPU: the same rule as a scenario process's. */
    private final CpuCosts costs;
    /** The simulated time an empty dat_evd_dequeue takes before its reply ({@code cpu.poll_overhead}, at least 1 ns). */
    private final long emptyPollPs;
    private final long mtu;
    /**
     * The connection of the program's first thread, which attached it: it owns the handles, the side channel and
     * the program's memory (this process itself, or the one a further thread's connection belongs to).
     */
    private final BridgeProcess owner;
    /** The program's connections, its own first (on the owner only). */
    private final List<BridgeProcess> threads;
    /** The program's handles by id, shared by its threads. */
    private final HandleTable handles;
    /** The program's memory (its LMRs), shared by its threads. */
    private final ProgramMemory memory;
    /** The IA address each endpoint connects to or accepted from (dat_ep_query's remote_ia_address_ptr). */
    private final Map<Ep, Integer> remoteIp;
    private final BridgeCalls calls;
    private final BridgeWait waits;
    /** The request being executed: its code (0 when none), what it is (null for an unknown code), its payload. */
    private int code;
    private Request request;
    /** The request in hand decoded, once it ran (for the trace's name and the recording), else null. */
    private BridgeCall decoded;
    /** What the call in hand costs after its reply, before the program's next call (a poll, a doorbell). */
    private long owedAfter;
    /** The program's thread CPU time between its last reply and this request (ns; 0 unless --cpu-scale). */
    private long cpuNs;
    /** For serve --record: when the request came, how many handles there were, and the event it returned. */
    private long startedAt;
    private int handlesBefore;
    private DatEvent lastEvent;
    /** The dequeue trace line of the event the reply carries, written after the call's line. */
    private TraceEvent pendingDequeue;
    /** Simulated CPU time owed before the next call (cpu.poll_overhead after an event was taken). */
    private long pendingPs;
    /** What the request in hand was charged before it ran (CPU scale, poll time owed); for serve --record. */
    private long chargedPs;
    /** Whether a blocked wait is ending (its reply is being sent): the next call owes cpu.poll_overhead. */
    private boolean waitEnding;
    /** Whether the call in hand is traced already (an empty dat_evd_dequeue, traced when it ran). */
    private boolean traced;
    private ByteBuffer req = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
    /** 0: reading the next request; 1: charged its CPU overhead, executing it next; 2: blocked in a wait. */
    private int phase;
    private boolean detached;
    private long callCount;
    private boolean closed;
    /** DAT_SUCCESS's name, without a map look-up per call. */
    private static final String SUCCESS_NAME = DatReturn.typeName(DatReturn.SUCCESS);
    /** The unsupported calls this connection was told about (once each). */
    private final java.util.Set<String> unsupportedSeen;
    /** The reply being written. */
    private ByteBuffer out;

    BridgeProcess(BridgeServer server, Wire wire, DatHost host, int pid, Params params) {
        super(server.sim(), host.name());
        this.server = server;
        this.wire = wire;
        this.host = host;
        this.pid = pid;
        this.costs = new CpuCosts(params);
        this.mtu = params.get(FabricParams.HCA_MTU);
        this.emptyPollPs = Math.max(costs.poll(), SimTime.NS);
        this.owner = this;
        this.threads = new ArrayList<>();
        threads.add(this);
        this.handles = new HandleTable();
        this.memory = new ProgramMemory(this, server);
        this.remoteIp = new IdentityHashMap<>();
        this.unsupportedSeen = new java.util.TreeSet<>();
        this.calls = new BridgeCalls(this, server, handles, costs);
        this.waits = new BridgeWait(this, server.dat(), costs);
        host.memory().external(memory);
    }

    /**
     * The connection of a further thread of an attached program: a consumer process of its own (its calls, its
     * waits, its clock) on the same host, with the program's handles and memory.
     */
    BridgeProcess(BridgeProcess program, Wire wire) {
        super(program.server.sim(), program.host.name() + "/" + (program.threads.size() + 1));
        this.server = program.server;
        this.wire = wire;
        this.host = program.host;
        this.pid = program.pid;
        this.costs = program.costs;
        this.mtu = program.mtu;
        this.emptyPollPs = program.emptyPollPs;
        this.owner = program;
        this.threads = List.of();
        this.handles = program.handles;
        this.memory = program.memory;
        this.remoteIp = program.remoteIp;
        this.unsupportedSeen = new java.util.TreeSet<>();
        this.calls = new BridgeCalls(this, server, handles, costs);
        this.waits = new BridgeWait(this, server.dat(), costs);
        program.threads.add(this);
    }

    /** The program's handles by id (index 0: DAT_HANDLE_NULL). */
    HandleTable handles() {
        return handles;
    }

    /** The program's memory: its LMRs. */
    ProgramMemory memory() {
        return memory;
    }

    /** Whether this is the connection that attached the program (not a further thread's). */
    boolean isProgram() {
        return owner == this;
    }

    /** Attaches the program's side channel. */
    void side(Wire w) {
        if (side != null) {
            side.close();
        }
        side = w;
    }

    /** This connection's wire. */
    Wire wire() {
        return wire;
    }

    /** The wire memory requests go on: the side channel while the program runs outside calls and holds no time. */
    Wire memoryWire() {
        if (threads.size() > 1) {
            // A thread inside a call serves memory while it waits for its reply; otherwise the side channel.
            for (int i = 0; i < threads.size(); i++) {
                BridgeProcess t = threads.get(i);
                if (!t.closed && !t.detached && (t.code != 0 || t.phase != 0)) {
                    return t.wire;
                }
            }
            return side != null ? side : wire;
        }
        return detached && side != null ? side : wire;
    }

    /**
     * Waits until the library's side thread has applied every memory write sent to it, so that a call of a program
     * that was outside calls runs after them (a dat_lmr_free and then free() must not race with a placement).
     */
    private void syncSide() throws IOException {
        Wire side = owner.side;
        if (side == null) {
            return;
        }
        side.begin(Protocol.S_SYNC);
        side.send();
        if (!side.next(server.memoryTimeoutNs()) || side.code() != Protocol.P_MEMDATA) {
            throw new IOException("the library's side channel did not answer");
        }
    }

    DatHost host() {
        return host;
    }

    int pid() {
        return pid;
    }

    long calls() {
        return callCount;
    }

    long mtu() {
        return mtu;
    }

    /** The simulated time an empty dat_evd_dequeue takes before its reply. */
    long emptyPollPs() {
        return emptyPollPs;
    }

    BridgeWait waits() {
        return waits;
    }

    /** Whether the program is outside DAT calls for longer than the grace period (it holds no time). */
    boolean detached() {
        return detached;
    }

    /** Whether the program is blocked in dat_evd_wait or dat_cno_wait. */
    boolean waiting() {
        return phase == 2;
    }

    boolean closed() {
        return closed;
    }

    /** Looks for a request of a detached program without waiting; wakes the process when there is one. */
    void poll() {
        poll(0);
    }

    /**
     * Waits up to {@code waitNs} of wall time for a request of a detached program; wakes the process when one comes
     * (its call then runs at the current simulated time).
     */
    void poll(long waitNs) {
        if (!detached || closed) {
            return;
        }
        try {
            if (wire.next(waitNs)) {
                takeRequest();
                cpuNs = 0; // a detached program's call runs at the fabric's time: its CPU time is not added
                pendingPs = 0;
                syncSide();
                detached = false;
                wake();
            }
        } catch (IOException e) {
            lost(e);
        }
    }

    /** Ends a wait that nothing can end any more (the server found every process blocked and no event left). */
    void breakDeadlock() {
        if (phase == 2) {
            waits.breakDeadlock();
            wake();
        }
    }

    @Override
    public long timer(long delayPs) {
        return wakeAfter(delayPs);
    }

    @Override
    public void cancelTimer(long id) {
        cancelWake(id);
    }

    @Override
    protected void resume() {
        try {
            step();
        } catch (IOException e) {
            lost(e);
        } catch (java.nio.BufferUnderflowException e) {
            // A request shorter than its arguments ends this program's connection, never the server.
            lost(new IOException("sent a " + Protocol.name(code) + " request shorter than its arguments"));
        }
    }

    private void step() throws IOException {
        while (true) {
            if (phase == 2) {
                waitEnding = true;
                boolean over = waits.over();
                waitEnding = false;
                if (!over) {
                    return;
                }
                phase = 0;
                pendingPs = costs.poll(); // a blocked wait that ended costs cpu.poll_overhead, as a scenario's
            } else if (phase == 1) {
                phase = 0;
                long after = execute();
                if (after < 0) {
                    phase = 2;
                    return;
                }
                if (after > 0) {
                    wakeAfter(after); // an empty dequeue: the poll takes simulated time, the reply comes after it
                    phase = 3;
                    return;
                }
            } else if (phase == 3) {
                phase = 0;
                reply(DatReturn.error(DatReturn.QUEUE_EMPTY, 0));
            }
            if (!detached && code == 0) {
                if (!wire.next(server.graceNs())) {
                    detached = true;
                    server.detachedNow(this);
                    return;
                }
                takeRequest();
            }
            if (code == 0) {
                return;
            }
            chargedPs = server.cpuPs(cpuNs) + pendingPs;
            long before = (request != null ? costs.before(request.cost()) : 0) + chargedPs;
            pendingPs = 0;
            phase = 1;
            if (before > 0) {
                wakeAfter(before);
                return;
            }
        }
    }

    /** Copies the frame the wire holds as the request to execute. */
    private void takeRequest() throws IOException {
        if (wire.code() == Protocol.P_MEMDATA) {
            throw new IOException("memory bytes came when no memory was asked for");
        }
        code = wire.code();
        request = Request.of(code);
        decoded = null;
        owedAfter = 0;
        memory.programRan(); // the program ran: its memory may have changed
        ByteBuffer f = wire.frame();
        cpuNs = f.getLong();
        startedAt = sim().now();
        chargedPs = 0;
        handlesBefore = handles.size();
        lastEvent = null;
        if (req.capacity() < f.remaining()) {
            req = ByteBuffer.allocate(f.remaining() * 2).order(ByteOrder.LITTLE_ENDIAN);
        }
        req.clear();
        req.put(f).flip();
    }

    /**
     * Decodes the request in hand once and executes it.
     *
     * @return 0 when it replied, -1 when it blocked in a wait, or a delay after which an empty dequeue replies
     */
    private long execute() throws IOException {
        if (request == null) {
            server.message("process on host " + host.name() + " sent request " + code
                    + ", which this datsim does not know (a provider library of another version?)");
            reply(DatReturn.NOT_IMPLEMENTED);
            return 0;
        }
        decoded = RequestDecoder.decode(request, req);
        return calls.execute(decoded);
    }

    // ------------------------------------------------------------------ what the calls use

    /** The call in hand costs {@code ps} of CPU after its reply, before the program's next call. */
    void owe(long ps) {
        owedAfter = ps;
    }

    /** An endpoint connected to (or accepted from) an IA address (dat_ep_query's remote_ia_address_ptr). */
    void connected(Ep ep, int ip) {
        remoteIp.put(ep, ip);
    }

    /** The IA address an endpoint connected to, or 0. */
    int remoteIp(Ep ep) {
        return remoteIp.getOrDefault(ep, 0);
    }

    /** The program called a DAT call datsim does not implement: said once per call name. */
    void unsupported(String what) {
        if (unsupportedSeen.add(what)) {
            server.message("process on host " + host.name() + " (pid " + pid + ") called " + what
                    + ", which datsim does not support: it returns DAT_NOT_IMPLEMENTED");
        }
    }

    // ------------------------------------------------------------------ the reply

    /** Begins the reply: the simulated time, the DAT_RETURN. */
    ByteBuffer start(int ret) {
        out = wire.begin(Protocol.S_REPLY);
        out.putLong(sim().now()).putInt(ret);
        return out;
    }

    /** Makes room for {@code n} more bytes of the reply. */
    ByteBuffer room(int n) {
        out = wire.room(n);
        return out;
    }

    /** Replies with a DAT_RETURN and no outputs. */
    void reply(int ret) throws IOException {
        start(ret);
        finishReply(ret);
    }

    /** Sends the reply begun, after tracing (and recording) the call. */
    void finishReply(int ret) throws IOException {
        if (!traced) {
            traceCall(ret);
        }
        traced = false;
        code = 0;
        request = null;
        decoded = null;
        pendingPs = owedAfter;
        callCount++;
        wire.send();
    }

    /** Traces the call in hand (and records it for serve --record): at its reply, or an empty dequeue when it ran. */
    void traceCall(int ret) {
        traced = true;
        TraceEvent e = TraceEvent.of(sim().now(), TraceEvent.CALL, host.name())
                .call(decoded != null ? decoded.call() : Protocol.name(code))
                .ret(ret == DatReturn.SUCCESS ? SUCCESS_NAME : DatReturn.typeName(ret));
        String sub = DatReturn.subtypeName(ret);
        if (sub != null) {
            e.attr(TraceKey.SUBTYPE, sub);
        }
        e.attr(TraceKey.PROCESS, name());
        server.trace(e, ret);
        if (pendingDequeue != null) {
            server.trace(pendingDequeue, DatReturn.SUCCESS);
            pendingDequeue = null;
        }
        Recorder recorder = server.recorder();
        if (recorder != null) {
            recorder.record(this, code, decoded, ret, startedAt + chargedPs, handlesBefore, lastEvent, sim().now(),
                    waitEnding ? costs.poll() : owedAfter);
        }
    }

    /** Writes a DAT event into the reply (and its dequeue line next to the call's, as a scenario process's). */
    void putEvent(DatEvent ev) {
        lastEvent = ev;
        room(72);
        out.putInt(ev.number).putInt(handles.id(ev.evd)).putInt(handles.id(ev.ep)).putInt(handles.id(ev.cr));
        Cr cr = ev.cr;
        DatHandle sp = cr == null ? null : cr.psp() != null ? cr.psp() : cr.rsp();
        out.putInt(handles.id(sp)).putInt(handles.id(ev.rmr)).putLong(ev.cookie).putInt(ev.status)
                .putInt(ev.operation).putLong(ev.transferredLength).putLong(cr == null ? 0 : cr.connQual())
                .putInt(cr == null ? 0 : Protocol.ipOf(cr.remoteHost()));
        byte[] pd = ev.number == Dat.CONNECTION_EVENT_ESTABLISHED && ev.ep != null ? ev.ep.peerPrivateData()
                : new byte[0];
        room(4 + pd.length);
        out.putInt(pd.length).put(pd);
        if (ev.number == Dat.IB_DTO_EVENT) { // DAT_IB_EXTENSION_EVENT_DATA: its type and immediate data
            room(8);
            out.putInt(ev.extensionType()).putInt(ev.immediateData());
        }
        // As a scenario process: the dequeue line after the call's, and taking the event costs cpu.poll_overhead
        // before the program's next call.
        pendingDequeue = DequeueLine.of(sim().now(), host.name(), name(), ev);
        owedAfter = costs.poll();
    }

    /** Writes a query's attributes into the reply: a count, then each name and value. */
    void putMap(Map<String, Long> m) {
        room(4);
        out.putInt(m == null ? 0 : m.size());
        if (m == null) {
            return;
        }
        for (Map.Entry<String, Long> e : m.entrySet()) {
            byte[] k = e.getKey().getBytes(StandardCharsets.UTF_8);
            room(12 + k.length);
            out.putInt(k.length).put(k).putLong(e.getValue());
        }
    }

    // ------------------------------------------------------------------ the program's memory

    /** Sends the memory writes kept for the program (the server calls this after each batch of events). */
    void flush() {
        if (closed) {
            return;
        }
        try {
            wire.flush();
            if (side != null) {
                side.flush();
            }
        } catch (IOException e) {
            lost(e);
        }
    }

    /**
     * Makes sure the program is inside a call, so that it serves memory requests: a detached program is waited for
     * until its next call arrives (that call then runs at the current simulated time).
     */
    boolean reachable() {
        if (code != 0 || phase != 0) {
            return true; // a request is pending: the library waits for its reply and serves memory meanwhile
        }
        try {
            if (!wire.next(server.memoryTimeoutNs())) {
                server.message("process on host " + host.name() + " did not come back into a DAT call within "
                        + server.memoryTimeoutNs() / 1_000_000 + " ms while the fabric needed its memory");
                return false;
            }
            takeRequest();
            detached = false;
            wake();
            return true;
        } catch (IOException e) {
            lost(e);
            return false;
        }
    }

    // ------------------------------------------------------------------ the end

    /** The connection is lost (or the program left): ends this process; the program's end closes its IAs. */
    void lost(IOException e) {
        if (closed) {
            return;
        }
        closed = true;
        String where = phase == 2 ? "while blocked in " + Protocol.name(code)
                : code != 0 ? "in " + Protocol.name(code) : "between calls";
        if (!(e instanceof EOFException)) {
            server.message("process on host " + host.name() + " (pid " + pid + "): " + e.getMessage());
        }
        server.closed(this, where);
        if (phase == 2) {
            waits.end();
        }
        if (owner != this) {
            wire.close(); // a thread of the program ended: the program goes on
            finish();
            return;
        }
        host.memory().external(null);
        wire.close();
        if (side != null) {
            side.close();
        }
        // What a dying process leaves: its IAs are closed abruptly, which breaks its connections (peers see it).
        DatProvider dat = server.dat();
        for (int i = 1; i < handles.size(); i++) {
            if (handles.get(i) instanceof Ia ia && !ia.isFreed()) {
                dat.iaClose(ia, Dat.CLOSE_ABRUPT_FLAG);
            }
        }
        finish();
    }
}

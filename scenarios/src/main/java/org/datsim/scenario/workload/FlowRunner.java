package org.datsim.scenario.workload;

import java.util.List;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatHost;
import org.datsim.fabric.hca.Hca;
import org.datsim.fabric.hca.QueuePair;
import org.datsim.fabric.hca.WorkRequest;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.topology.Topology;

/**
 * Runs the flows of a workload directly on the HCAs of a fabric, the way {@code bench fattree} drives them: no
 * consumer process and no DAT calls, so no CPU overheads and no event dispatching are in a flow's time.
 *
 * <p>Every flow gets its own connected queue pair on each end, whose numbers (and so its ECMP hash) are reserved
 * before time 0 in flow order, so that they are the same in every run of the same flows; no connection manager
 * exchange. The queue pairs exist only while the flow is in progress ({@link Attached}): at its start time they are
 * made and the flow's RDMA Write (or Send, its receive posted then) is posted to the requester's HCA, the doorbell
 * rung at that instant ({@link Hca#postRequest}); each host destroys its queue pair when it is done with it. Its
 * <b>FCT</b> runs from that instant to the requester HCA's completion of the operation
 * ({@link QueuePair.Listener#requestCompleted}, called when the HCA writes the completion after the ACK of the last
 * packet arrived) — the counterpart of HPCC's FCT, which runs from the flow's start to its sender's receipt of the
 * last ACK.
 *
 * <p>The <b>ideal FCT</b> of a flow is its FCT alone on an idle copy of the fabric <b>with congestion control
 * off</b>: each flow is run again on a second fabric, one after the other, each starting when the previous one has
 * finished and the fabric is idle. That fabric has the same topology, the same host model and the same queue pairs
 * created in the same order (so each flow takes the same ECMP path); its parameters are the run's with
 * {@code cc.algorithm=none} and the features only congestion control needs off ({@code cc.int=false},
 * {@code ecn.enabled=false}), but with {@code hca.arbitration} and {@code transport.ack_interval} set to what the
 * loaded run used ({@link #idealParams}: any congestion control implies packet arbitration, and
 * {@code ack_interval 0} means one ACK per packet under hpcc, dctcp and timely), so that the only difference is the
 * controller's throttling. A flow that its congestion control slows down even when it is alone (a window smaller
 * than the bandwidth-delay product, a start below line rate) therefore has a slowdown above 1: the metric shows what
 * the controller costs instead of hiding it. The ideal FCT includes everything datsim models on an empty path
 * (doorbell and WQE fetch over PCIe, DMA reads at the PCIe rate, per-hop switch latency, store and forward at each
 * hop, the ACK's way back, the completion write); HPCC's standalone FCT ({@link StandaloneFct}), which the outputs
 * carry beside it, is a formula instead: the pair's base RTT plus the message with its headers at the pair's
 * bottleneck link rate. The two runs are independent and are run on two threads.
 *
 * <p>Flows are <b>payload-free</b> ({@link WorkRequest#payloadFree}): their packets carry no bytes, so no host memory
 * is read or written for them and no packet holds a data buffer; their timing is exactly that of the same flows
 * moving bytes (every DMA, MTT stall and packet length is modelled alike; {@code FlowRunnerTest} compares the two).
 * Their buffers are the runner's own (no consumer knows their addresses), so nothing can expect bytes in them.
 */
public final class FlowRunner {

    /**
     * The outcome of a run.
     *
     * @param fctPs each flow's FCT in flow order, ps, or -1 if it did not complete successfully
     * @param idealPs each flow's ideal FCT (alone, congestion control off), ps, or -1 if not computed or not
     *     completed
     * @param standalonePs each flow's HPCC standalone FCT ({@link StandaloneFct}), ps, or -1 if its hosts are not
     *     connected
     * @param failed the flows that completed with an error or broke their queue pair
     * @param events events executed by the loaded run
     * @param endPs simulated time of its last event, ps
     * @param packets packets sent by all ports of the loaded run (each hop counts)
     * @param pauses flow-control stall time summed over all ports, ps
     * @param drops packets dropped by switches for want of buffer, summed over all ports
     * @param destroyedQpDrops packets of the loaded run that arrived for a queue pair its host had destroyed and were
     *     dropped ({@link Attached#packetsForDestroyed}; 0 unless a switch dropped a message's last ACK)
     * @param runNanos wall-clock nanoseconds of the loaded run's event loop
     * @param stopped why a run stopped before its flows finished (a {@link Limits} guard: the loaded run's or the
     *     ideal runs'; the flows not finished then have no FCT), or null if it did not
     * @param fabric the loaded run's fabric, after the run (for the values it derived from the parameters)
     */
    public record Result(long[] fctPs, long[] idealPs, long[] standalonePs, long failed, long events, long endPs,
            long packets, long pauses, long drops, long destroyedQpDrops, long runNanos, String stopped,
            Fabric fabric) {
    }

    /**
     * The guards of a run ({@code bench hpcc --max-events}, {@code --max-time}): the loaded run stops after
     * {@code maxEvents} events or before an event later than {@code maxTimePs}; the ideal runs, one flow after
     * another on one simulator, stop after {@code maxEvents} events in all (their clock runs on from flow to flow, so
     * the time limit is the loaded run's only).
     *
     * @param maxEvents the event limit, positive
     * @param maxTimePs the simulated-time limit, ps, non-negative
     */
    public record Limits(long maxEvents, long maxTimePs) {
        /** No limit. */
        public static final Limits NONE = new Limits(Long.MAX_VALUE, Long.MAX_VALUE);

        /** Checks the limits. */
        public Limits {
            if (maxEvents < 1 || maxTimePs < 0) {
                throw new IllegalArgumentException("limits must be positive: " + maxEvents + " events, " + maxTimePs
                        + " ps");
            }
        }
    }

    private FlowRunner() {
    }

    /**
     * Runs the flows on a fabric, and again each alone for the ideal FCTs.
     *
     * @param topology the topology
     * @param params the fabric parameters
     * @param flows the flows; host indices refer to {@code topology.hosts()}
     * @param send true to make each flow a Send, false for an RDMA Write
     * @param seed the run's seed
     * @param ideal true to compute the ideal FCTs
     * @return the outcome
     * @throws InterruptedException if interrupted while waiting for the ideal run
     */
    public static Result run(Topology topology, Params params, List<Flow> flows, boolean send, long seed,
            boolean ideal) throws InterruptedException {
        return run(topology, params, flows, send, seed, ideal, true);
    }

    /**
     * Runs the flows on a fabric, and again each alone for the ideal FCTs, payload-free or moving their bytes.
     *
     * @param topology the topology
     * @param params the fabric parameters
     * @param flows the flows; host indices refer to {@code topology.hosts()}
     * @param send true to make each flow a Send, false for an RDMA Write
     * @param seed the run's seed
     * @param ideal true to compute the ideal FCTs
     * @param payloadFree true for payload-free flows (the default of {@link #run}), false to move zero bytes
     * @return the outcome
     * @throws InterruptedException if interrupted while waiting for the ideal run
     */
    public static Result run(Topology topology, Params params, List<Flow> flows, boolean send, long seed,
            boolean ideal, boolean payloadFree) throws InterruptedException {
        return run(topology, params, flows, send, seed, ideal, payloadFree, new Progress(), Limits.NONE);
    }

    /**
     * How far a run has got, for a display on another thread: written by the runs at each flow's completion (never
     * per event), read with no lock, so a reading may lag a little. It changes nothing in the run.
     */
    public static final class Progress {
        private volatile Simulator loaded;
        private volatile Attached loadedFlows;
        private volatile int idealDone;

        /** Returns the loaded run's simulated time, ps (0 before it starts). */
        public long simulatedPs() {
            Simulator s = loaded;
            return s == null ? 0 : s.now();
        }

        /** Returns the flows of the loaded run that have completed. */
        public int completed() {
            Attached a = loadedFlows;
            return a == null ? 0 : a.completed();
        }

        /** Returns the flows whose ideal FCT has been computed. */
        public int idealDone() {
            return idealDone;
        }
    }

    /**
     * {@link #run(Topology, Params, List, boolean, long, boolean, boolean)}, telling {@code progress} how far it got.
     *
     * @param topology the topology
     * @param params the fabric parameters
     * @param flows the flows
     * @param send true for Sends, false for RDMA Writes
     * @param seed the run's seed
     * @param ideal true to compute the ideal FCTs
     * @param payloadFree true for payload-free flows
     * @param progress what a display reads
     * @param limits the guards of the loaded and the ideal runs
     * @return the outcome
     * @throws InterruptedException if interrupted while waiting for the ideal run
     */
    public static Result run(Topology topology, Params params, List<Flow> flows, boolean send, long seed,
            boolean ideal, boolean payloadFree, Progress progress, Limits limits) throws InterruptedException {
        return run(topology, params, flows, send, seed, ideal, payloadFree, progress, limits, 0, 0);
    }

    /**
     * As {@link #run(Topology, Params, List, boolean, long, boolean, boolean, Progress, Limits)}, the loaded run on
     * the sequential engine ({@code partitions} 0 or 1: one {@link Simulator} with the fabric's owners) or
     * partitioned ({@link org.datsim.fabric.FabricPartition}) with {@code threads} threads. Events of equal time are
     * ordered by owner keys on both, so every output is the same for any number of partitions and threads, except
     * where the event limit stops the run: at the limit on the sequential engine, at the end of the window that
     * reaches it when partitioned. The ideal runs stay sequential.
     *
     * @param partitions 0 or 1 for the sequential engine, else 2 to the hosts (at most 64)
     * @param threads 1 to {@code partitions}
     */
    public static Result run(Topology topology, Params params, List<Flow> flows, boolean send, long seed,
            boolean ideal, boolean payloadFree, Progress progress, Limits limits, int partitions, int threads)
            throws InterruptedException {
        long[][] idealPs = new long[1][];
        String[] idealStopped = new String[1];
        Throwable[] idealFailure = new Throwable[1];
        Thread alone = null;
        if (ideal) {
            alone = new Thread(() -> {
                try {
                    idealPs[0] = ideal(topology, params, java.util.Map.of(), flows, send, seed, payloadFree,
                            progress, limits.maxEvents(), idealStopped);
                } catch (RuntimeException | OutOfMemoryError e) { // rethrown by the caller's thread
                    idealFailure[0] = e;
                }
            }, "datsim-ideal-fct");
            alone.start();
        }
        Fabric fabric = Fabric.onEngine(topology, params, java.util.Map.of(), new RandomStreams(seed),
                new TraceSource<TraceEvent>("flows"), partitions, threads);
        org.datsim.core.engine.PartitionedSimulator engine = fabric.engine();
        Simulator sim = fabric.sim();
        Attached net = new Attached(fabric, flows, send, payloadFree);
        net.schedulePosts();
        progress.loaded = sim;
        progress.loadedFlows = net;
        // A full collection before the run: it squeezes the garbage of the set-up (topology, parameters)
        // out from between the fabric's objects, which the run then touches on nearly every event, so that they share
        // cache lines and pages (the run itself allocates little: each flow's queue pairs and request at its start).
        // See docs/performance.md (bench hpcc) for the figure; -XX:+DisableExplicitGC turns it off.
        System.gc();
        long t0 = System.nanoTime();
        org.datsim.core.engine.RunResult ran;
        if (engine != null) {
            engine.setMaxEvents(limits.maxEvents());
            ran = limits.maxTimePs() == Long.MAX_VALUE ? engine.run() : engine.runUntil(limits.maxTimePs());
            if (ran.reason() == org.datsim.core.engine.StopReason.UNTIL_TIME) {
                ran = new org.datsim.core.engine.RunResult(org.datsim.core.engine.StopReason.TIME_LIMIT,
                        ran.endTimePs(), ran.events(), "stopped at the time limit of " + org.datsim.core.time.SimTime.format(
                                limits.maxTimePs()) + "; raise it with --max-time if the run is not runaway");
            }
        } else {
            sim.setMaxEvents(limits.maxEvents());
            sim.setMaxTimePs(limits.maxTimePs());
            ran = sim.run();
        }
        long events = fabric.eventsExecuted();
        long endPs = fabric.lastEventPs();
        long runNanos = System.nanoTime() - t0;
        if (alone != null) {
            alone.join();
            if (idealFailure[0] instanceof RuntimeException e) {
                throw e;
            }
            if (idealFailure[0] instanceof OutOfMemoryError e) {
                throw e;
            }
        }
        String stopped = ran.hitLimit() ? "the loaded run " + ran.message()
                : idealStopped[0] != null ? "the ideal runs (each flow alone) " + idealStopped[0] : null;
        long[] fct = net.fct();
        long failed = 0;
        for (long f : fct) {
            if (f < 0) {
                failed++;
            }
        }
        long packets = 0;
        long stall = 0;
        long drops = 0;
        for (Port p : fabric.ports()) {
            packets += p.packetsSent();
            stall += p.counters().stallPs();
            drops += p.counters().drops();
        }
        long[] none = new long[flows.size()];
        java.util.Arrays.fill(none, -1);
        return new Result(fct, ideal ? idealPs[0] : none, StandaloneFct.of(topology, params, flows), failed,
                events, endPs, packets, stall, drops, net.packetsForDestroyed(), runNanos, stopped, fabric);
    }

    /**
     * Reserves every flow's queue pairs on a built fabric and schedules each flow's start (its queue pairs made, its
     * request posted) at its start time, which must not be before the simulator's present.
     *
     * @param fabric the fabric, not yet run
     * @param flows the flows; host indices refer to the fabric's hosts
     * @param send true to make each flow a Send, false for an RDMA Write
     * @return the flows' state, to read their FCTs after the run
     */
    public static Attached attach(Fabric fabric, List<Flow> flows, boolean send) {
        Attached net = new Attached(fabric, flows, send, true);
        net.schedulePosts();
        return net;
    }

    /**
     * The ideal FCT of each flow: its FCT alone on a fresh copy of the fabric with congestion control off (see the
     * class comment and {@link #idealParams}).
     *
     * @param topology the topology
     * @param params the loaded run's fabric parameters (the ideal fabric's are derived from them)
     * @param hostParams the loaded run's parameters of hosts that override some of them, by host name
     * @param flows the flows
     * @param send true for Sends, false for RDMA Writes
     * @param seed the seed of the copy's random streams
     * @return each flow's FCT alone, ps, or -1 if it did not complete successfully alone
     */
    public static long[] ideal(Topology topology, Params params, java.util.Map<String, Params> hostParams,
            List<Flow> flows, boolean send, long seed) {
        return ideal(topology, params, hostParams, flows, send, seed, true, new Progress(), Long.MAX_VALUE,
                new String[1]);
    }

    /** The ideal FCTs, the runs stopping after {@code maxEvents} events in all (then {@code stopped[0]} says so). */
    static long[] ideal(Topology topology, Params params, java.util.Map<String, Params> hostParams,
            List<Flow> flows, boolean send, long seed, boolean payloadFree, Progress progress, long maxEvents,
            String[] stopped) {
        Params idealFabric = idealParams(params, params);
        java.util.Map<String, Params> idealHosts = new java.util.LinkedHashMap<>();
        hostParams.forEach((h, hp) -> idealHosts.put(h, idealParams(hp, params)));
        Simulator sim = new Simulator();
        Fabric fabric = new Fabric(sim, topology, idealFabric, idealHosts, new RandomStreams(seed),
                new TraceSource<TraceEvent>("ideal"));
        Attached net = new Attached(fabric, flows, send, payloadFree);
        long[] out = new long[flows.size()];
        java.util.Arrays.fill(out, -1);
        sim.setMaxEvents(maxEvents);
        for (int i = 0; i < out.length; i++) {
            long t0 = sim.now();
            net.post(i);
            org.datsim.core.engine.RunResult ran = sim.run();
            if (ran.hitLimit()) {
                stopped[0] = ran.message();
                break;
            }
            out[i] = net.done[i] >= 0 && !net.bad[i] ? net.done[i] - t0 : -1;
            progress.idealDone = i + 1;
        }
        return out;
    }

    /**
     * The parameters of the ideal fabric (or of one of its hosts): the loaded run's with {@code cc.algorithm=none},
     * {@code cc.int=false} and {@code ecn.enabled=false}, and with {@code hca.arbitration} and
     * {@code transport.ack_interval} set explicitly to what the loaded run used, as the fabric model resolves them:
     * packet arbitration if {@code hca.arbitration} is packet or the host's {@code cc.algorithm} is not none (the send
     * engine's rule), and an ACK interval of 1 where {@code transport.ack_interval} is 0 and the fabric's
     * {@code cc.algorithm} is hpcc, dctcp or timely (the HCA's rule, {@code CongestionControl.effectiveAckInterval}). Everything else is unchanged. The result passes
     * {@link FabricParams#crossCheck}.
     *
     * @param run the loaded run's parameters of the fabric or of a host
     * @param fabric the loaded run's fabric parameters (whose congestion control the HCAs are given)
     * @return the ideal fabric's parameters
     * @throws IllegalStateException if the derived parameters do not pass the cross-check
     */
    public static Params idealParams(Params run, Params fabric) {
        boolean packet = "packet".equals(run.choice(FabricParams.HCA_ARBITRATION))
                || !"none".equals(run.choice(FabricParams.CC_ALGORITHM));
        long ackInterval = org.datsim.fabric.cc.CongestionControl.effectiveAckInterval(
                run.get(FabricParams.ACK_INTERVAL), org.datsim.fabric.cc.CongestionControl.Algorithm.valueOf(
                        fabric.choice(FabricParams.CC_ALGORITHM).toUpperCase(java.util.Locale.ROOT)));
        java.util.Map<String, String> off = new java.util.LinkedHashMap<>();
        off.put(FabricParams.CC_ALGORITHM.name(), "none");
        off.put(FabricParams.CC_INT.name(), "false");
        off.put(FabricParams.ECN_ENABLED.name(), "false");
        off.put(FabricParams.HCA_ARBITRATION.name(), packet ? "packet" : "request");
        off.put(FabricParams.ACK_INTERVAL.name(), Long.toString(ackInterval));
        List<String> problems = new java.util.ArrayList<>();
        Params p = run.with(off, problems);
        if (problems.isEmpty()) {
            problems.addAll(FabricParams.crossCheck(p));
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the ideal fabric's parameters (congestion control off) are not valid: "
                    + problems);
        }
        return p;
    }

    /**
     * The flows on one fabric: a connected pair of queue pairs per flow while it is in progress, and when each
     * completed.
     *
     * <p>Attaching reserves every flow's two queue pair numbers in flow order ({@link Hca#reserveQueuePair}: the
     * create-QP commands run then, as before the run, so numbers, default ECMP labels and the QP-context cache are
     * those of creating every queue pair at once) and, under {@code switch.ecmp hpcc}, fixes its UDP ports. The queue
     * pairs themselves, the receive of a Send and the work request are made at the flow's start, each on its host, and
     * each host destroys its own ({@link Hca#destroyQueuePair}): the requester's when its request completes, the
     * responder's once its requester is done (then nothing that needs an answer can arrive; a packet that still does
     * is dropped and counted, {@link #packetsForDestroyed}).
     * So the objects alive are those of the flows in progress; per flow only primitives are kept.
     */
    public static final class Attached implements QueuePair.Listener {
        /**
         * Each host's simulator (its partition's on a partitioned fabric), and whether the fabric's events have owners
         * (a keyed sequential or a partitioned engine; only the ideal runs' plain Simulator has none).
         */
        private final Simulator[] simOfHost;
        private final boolean keyed;
        /** Flows completed, per source host (each counted by its host's partition). */
        private final int[] completedBy;
        private final List<Flow> flows;
        private final boolean send;
        private final boolean payloadFree;
        private final Hca[] hca;
        /** Each host's one source and one target buffer (address space only), shared by its flows. */
        private final long[] srcBuffer;
        private final long[] dstBuffer;
        /** Each flow's reserved queue pair numbers, on its source and on its destination. */
        private final int[] requesterQp;
        private final int[] responderQp;
        /** Each flow's responder queue pair while it lives (destroyed by its host once the requester is done). */
        private final QueuePair[] responders;
        /** With owners: the delay of the message that tells a destination its flow's requester is done. */
        private final long teardownDelayPs;
        private final EventHandler destroyResponder = this::destroyResponder;
        /** Each flow's ECMP label (HPCC's UDP ports) under switch.ecmp hpcc, else null (the HCA's default). */
        private final int[] labels;
        final long[] done;
        final boolean[] bad;
        final EventHandler poster;
        /** Flows completed so far (read by {@link Progress} on another thread: a sum of per-host counts). */
        int completed() {
            int n = 0;
            for (int c : completedBy) {
                n += c;
            }
            return n;
        }
        /**
         * Where each flow's completion is traced (a {@code flow} line), by source host (on a partitioned engine, the
         * host's partition's trace), and the hosts' names.
         */
        private final List<TraceSource<TraceEvent>> traceOfHost;
        private final String[] hostNames;
        private final Responder responder = new Responder();

        Attached(Fabric fabric, List<Flow> flows, boolean send, boolean payloadFree) {
            this.flows = flows;
            this.keyed = fabric.engine() != null || fabric.sim().owners() > 0;
            if (fabric.engine() != null && send) {
                // a Send's receive is posted on the destination at the flow's start, from the source's thread
                throw new IllegalArgumentException("flows of Sends cannot run partitioned yet: run with --threads 1");
            }
            this.send = send;
            this.payloadFree = payloadFree;
            List<DatHost> hosts = fabric.hosts();
            int n = hosts.size();
            List<TraceSource<TraceEvent>> traces = new java.util.ArrayList<>(n);
            for (int h = 0; h < n; h++) {
                traces.add(fabric.traceOfHost(h));
            }
            this.traceOfHost = traces;
            hostNames = new String[n];
            simOfHost = new Simulator[n];
            completedBy = new int[n];
            for (int h = 0; h < n; h++) {
                hostNames[h] = hosts.get(h).name();
                simOfHost[h] = fabric.simOfHost(h);
            }
            long[] maxOut = new long[n];
            long[] maxIn = new long[n];
            for (Flow f : flows) {
                maxOut[f.src()] = Math.max(maxOut[f.src()], f.sizeBytes());
                maxIn[f.dst()] = Math.max(maxIn[f.dst()], f.sizeBytes());
            }
            // One source and one target buffer per host, as large as its largest flow: address space only (the
            // payload is zeros, which sparse memory does not store).
            srcBuffer = new long[n];
            dstBuffer = new long[n];
            hca = new Hca[n];
            for (int h = 0; h < n; h++) {
                hca[h] = hosts.get(h).hca();
                srcBuffer[h] = maxOut[h] > 0 ? hca[h].memory().allocate(maxOut[h]) : 0;
                dstBuffer[h] = maxIn[h] > 0 ? hca[h].memory().allocate(maxIn[h]) : 0;
            }
            int count = flows.size();
            done = new long[count];
            bad = new boolean[count];
            java.util.Arrays.fill(done, -1);
            requesterQp = new int[count];
            responderQp = new int[count];
            responders = new QueuePair[count];
            teardownDelayPs = keyed ? longestLinkPs(fabric) : 0;
            // switch.ecmp hpcc: each flow's UDP ports as HPCC's third.cc gives them, the source port counting from
            // 10000 per host pair in flow order, the destination port the flow's (its file's dport)
            boolean hpccPorts = "hpcc".equals(fabric.params().choice(org.datsim.fabric.FabricParams.SWITCH_ECMP));
            labels = hpccPorts ? new int[count] : null;
            java.util.Map<Long, Integer> nextPort = hpccPorts ? new java.util.HashMap<>() : null;
            for (int i = 0; i < count; i++) {
                Flow f = flows.get(i);
                requesterQp[i] = hca[f.src()].reserveQueuePair();
                responderQp[i] = hca[f.dst()].reserveQueuePair();
                if (hpccPorts) {
                    int sport = nextPort.merge((long) f.src() * n + f.dst(), 1, Integer::sum) + 9999;
                    labels[i] = (sport & 0xFFFF) | f.dport() << 16;
                }
            }
            if (keyed) {
                for (Simulator s : simOfHost) {
                    s.setUpAs(0);
                }
            }
            poster = this::post;
        }

        /**
         * The delay of the message that tells a flow's destination its requester is done: the longest propagation
         * delay of the fabric's links, at least any lookahead a partitioning can have, so that it is the same for
         * every number of partitions.
         */
        private static long longestLinkPs(Fabric fabric) {
            long d = 1;
            for (Port p : fabric.ports()) {
                d = Math.max(d, p.propagationPs());
            }
            return d;
        }

        /** Set-up acting as host h (a fabric with owners: its events are keyed by it and run in its partition). */
        private void setUpAs(int h) {
            if (keyed) {
                simOfHost[h].setUpAs(org.datsim.fabric.FabricPartition.hostOwner(h));
            }
        }

        /** Schedules every flow's start: an event of its source host. */
        void schedulePosts() {
            for (int i = 0; i < flows.size(); i++) {
                int src = flows.get(i).src();
                if (keyed) {
                    simOfHost[src].sendAt(org.datsim.fabric.FabricPartition.hostOwner(src), flows.get(i).startPs(),
                            poster, i);
                } else {
                    simOfHost[src].scheduleAt(flows.get(i).startPs(), poster, i);
                }
            }
        }

        /**
         * Returns each flow's FCT: from its start time to its requester's completion, ps; -1 if it did not complete
         * successfully.
         */
        public long[] fct() {
            long[] out = new long[done.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = done[i] >= 0 && !bad[i] ? done[i] - flows.get(i).startPs() : -1;
            }
            return out;
        }

        /**
         * Returns the queue pairs alive on the fabric's HCAs now (those of the flows in progress, and any other
         * consumer's).
         */
        public long liveQueuePairs() {
            long live = 0;
            for (Hca h : hca) {
                live += h.liveQueuePairs();
            }
            return live;
        }

        /** Returns the packets the fabric's HCAs dropped because their queue pair had been destroyed. */
        public long packetsForDestroyed() {
            long drops = 0;
            for (Hca h : hca) {
                drops += h.packetsForDestroyed();
            }
            return drops;
        }

        /**
         * A flow starts: its queue pairs are made and connected, on its destination the receive of a Send is posted,
         * and its request is posted to its source's HCA (the doorbell rung now).
         */
        void post(long index) {
            int i = (int) index;
            Flow f = flows.get(i);
            Hca a = hca[f.src()];
            Hca b = hca[f.dst()];
            QueuePair qa = a.createQueuePair("flow" + i, requesterQp[i]);
            // Partitioned, this runs on the source's thread: the responder's queue pair is a new object that its host
            // first sees through the flow's first packet (handed over after this), and whose count is atomic.
            QueuePair qb = b.createQueuePair("flow" + i + "_r", responderQp[i]);
            responders[i] = qb;
            if (labels != null) {
                qa.setFlowLabel(labels[i]);
            }
            qa.setListener(this);
            qb.setListener(responder);
            qa.connect(qb);
            qb.connect(qa);
            long[] addr = {srcBuffer[f.src()]};
            long[] len = {f.sizeBytes()};
            WorkRequest wr;
            if (send) {
                b.postReceive(new WorkRequest(-1 - i, WorkRequest.RECV, qb, i, 0, new long[] {dstBuffer[f.dst()]},
                        new long[] {f.sizeBytes()}, 0, 0));
                wr = new WorkRequest(i, WorkRequest.SEND, qa, i, 0, addr, len, 0, 0);
            } else {
                wr = new WorkRequest(i, WorkRequest.RDMA_WRITE, qa, i, 0, addr, len, dstBuffer[f.dst()], 1);
            }
            wr.setPayloadFree(payloadFree);
            a.postRequest(wr);
        }

        @Override
        public void requestCompleted(WorkRequest wr) {
            int i = (int) wr.cookie;
            int src = flows.get(i).src();
            done[i] = simOfHost[src].now();
            completedBy[src]++;
            if (wr.status() != Dat.DTO_SUCCESS) {
                bad[i] = true;
            }
            TraceSource<TraceEvent> trace = traceOfHost.get(src);
            if (trace != null && trace.isEnabled()) {
                Flow f = flows.get(i);
                trace.fire(org.datsim.core.trace.TraceEvent.of(done[i], org.datsim.core.trace.TraceKind.FLOW,
                        hostNames[f.src()]).op(i).status(Dat.DTO_STATUS.name(wr.status()))
                        .attr(org.datsim.core.trace.TraceKey.TO, hostNames[f.dst()])
                        .attr(org.datsim.core.trace.TraceKey.BYTES, f.sizeBytes())
                        .attr(org.datsim.core.trace.TraceKey.START_PS, f.startPs())
                        .attr(org.datsim.core.trace.TraceKey.FCT_PS, done[i] - f.startPs()));
            }
            QueuePair qp = wr.qp;
            qp.hca().destroyQueuePair(qp); // the flow's one request is done: the requester's host lets it go
            // The responder's host lets its queue pair go once the requester is done (its last ACK arrived, or it
            // gave up), not at the message's last packet: a lost last ACK has the message sent again, which the
            // responder must still answer. On a fabric with owners the destination is told by a message (its host may
            // be in another partition), which arrives the longest link delay later whatever the partitioning.
            if (keyed) {
                simOfHost[src].send(org.datsim.fabric.FabricPartition.hostOwner(flows.get(i).dst()), teardownDelayPs,
                        destroyResponder, i);
            } else {
                destroyResponder(i);
            }
        }

        /** On the flow's destination: its responder queue pair goes. */
        private void destroyResponder(long index) {
            int i = (int) index;
            QueuePair qb = responders[i];
            responders[i] = null;
            qb.hca().destroyQueuePair(qb);
        }

        @Override
        public void receiveCompleted(WorkRequest wr) {
        }

        @Override
        public void broken(int status) {
            // the failing request completes with its error status too, which marks its flow
        }

        @Override
        public int checkRemoteAccess(int rkey, long address, long length, boolean write) {
            return Dat.DTO_SUCCESS;
        }
    }

    /**
     * The responders' queue pairs: every access allowed (each is destroyed by its own host once its requester is
     * done: {@link Attached#destroyResponder}).
     */
    static class Responder implements QueuePair.Listener {
        @Override
        public void requestCompleted(WorkRequest wr) {
        }

        @Override
        public void receiveCompleted(WorkRequest wr) {
        }

        @Override
        public void broken(int status) {
        }

        @Override
        public int checkRemoteAccess(int rkey, long address, long length, boolean write) {
            return Dat.DTO_SUCCESS;
        }
    }
}

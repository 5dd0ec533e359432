package org.datsim.fabric.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.time.DataRate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.hca.Hca;
import org.datsim.fabric.hca.QueuePair;
import org.datsim.fabric.hca.WorkRequest;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.topology.Topology;
import org.datsim.fabric.topology.TopologyBuilder;

/**
 * {@code datsim bench stream}: two hosts back to back; host 0 posts N RDMA Writes at time 0 on one queue pair and
 * the whole HCA and link model moves them. The model's arrival time of the last byte is also computed in closed
 * form ({@link #predictLastArrival}), and the two must agree.
 */
public final class StreamBench {

    private StreamBench() {
    }

    /**
     * The figures of one run.
     *
     * @param writes the writes posted
     * @param completed the writes completed successfully
     * @param failed the writes that failed
     * @param packets the packets sent on both directions of the link (data and ACKs)
     * @param events the simulator events executed
     * @param predictedLastArrivalPs the closed-form arrival time of the last bit at host 1, ps
     * @param simulatedLastArrivalPs the simulated arrival time of the last bit at host 1, ps
     * @param lastCompletionPs when the last write's completion was written at host 0, ps
     * @param regime which resource bounds the stream ({@code hca_engine} or, failing the closed form, {@code
     *     recurrence})
     * @param simNanos wall-clock nanoseconds of building and running the simulation
     * @param pooledPackets the packets the pool ever created (the most in flight at once)
     */
    public record Result(long writes, long completed, long failed, long packets, long events,
            long predictedLastArrivalPs, long simulatedLastArrivalPs, long lastCompletionPs, String regime,
            long simNanos, int pooledPackets) {
    }

    /**
     * The parameters of the benchmark: defaults, 100 Gb/s links of 1 us, a 1 KiB MTU, plus overrides.
     *
     * @param overrides alternating names and values
     * @return the parameters
     * @throws IllegalArgumentException if an override is invalid
     */
    public static Params params(String... overrides) {
        Map<String, String> map = new LinkedHashMap<>();
        map.put(FabricParams.LINK_BANDWIDTH.name(), "100Gbps");
        map.put(FabricParams.LINK_LATENCY.name(), "1us");
        map.put(FabricParams.HCA_MTU.name(), "1KiB");
        for (int i = 0; i + 1 < overrides.length; i += 2) {
            map.put(overrides[i], overrides[i + 1]);
        }
        List<String> problems = new ArrayList<>();
        Params p = Params.defaults(FabricParams.ALL).with(map, problems);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return p;
    }

    /**
     * The model's arrival time of the last bit of N RDMA Writes of one size, all posted at time 0 on one queue pair
     * of an idle HCA, back to back. The doorbells reach the HCA at {@code L} (pcie.latency); the send engine then
     * spends, per write, {@code E = wqe_process + 2L + dma(wqe_bytes)} (WQE fetch) {@code + 2L} (payload read round
     * trip) {@code + sum dma(len_k)} (payload of each packet), so write {@code i} starts at {@code L + i E}. Packet
     * {@code k} of a write is ready at {@code a_k = wqe_process + 4L + dma(wqe_bytes) + sum_{j<=k} dma(len_j)}
     * after its start and occupies the wire for {@code w_k} (headers + payload at the link rate). When the engine is
     * the bottleneck (the link has sent a write's packets before the next write's first packet is ready:
     * {@code T - a_0 <= E} with {@code T = max_k (a_k + sum_{j>=k} w_j)}), the last write's last bit leaves at
     * {@code L + (N-1) E + T} and arrives one link latency {@code P} later. Writes are posted in a window of W:
     * the completion of write {@code j} posts write {@code j + W}; its CQE is written {@code L} after the ACK
     * ({@code w_ack} on the wire) arrives, so its doorbell reaches the HCA at {@code s_j + T + 2P + w_ack + 2L},
     * which must not be later than {@code s_(j+W) = s_j + W E} for the engine never to wait:
     * {@code T + 2P + w_ack + 2L <= W E}.
     *
     * @param p the parameters
     * @param n the number of writes
     * @param bytes the size of each write
     * @param window the writes outstanding at once
     * @return the arrival time in picoseconds, or -1 if the engine is not the bottleneck or the window lets it
     *     wait (the closed form does not apply)
     */
    public static long predictLastArrival(Params p, int n, long bytes, int window) {
        long pcie = p.get(FabricParams.PCIE_LATENCY);
        DataRate pcieRate = p.rate(FabricParams.PCIE_BANDWIDTH);
        DataRate link = p.rate(FabricParams.LINK_BANDWIDTH);
        long mtu = p.get(FabricParams.HCA_MTU);
        long header = p.get(FabricParams.LINK_HEADER_BYTES);
        long reth = p.get(FabricParams.LINK_RETH_BYTES);
        int packets = (int) Math.max(1, (bytes + mtu - 1) / mtu);
        long[] a = new long[packets];
        long[] w = new long[packets];
        long t = p.get(FabricParams.HCA_WQE_PROCESS) + 4 * pcie + pcieRate.transmitTimePs(p.get(FabricParams.HCA_WQE_BYTES));
        for (int k = 0; k < packets; k++) {
            long len = Math.min(mtu, bytes - k * mtu);
            t += pcieRate.transmitTimePs(len);
            a[k] = t;
            w[k] = link.transmitTimePs(header + len + (k == 0 ? reth : 0));
        }
        long e = t; // the engine's time per write
        long tail = 0;
        long wireAfter = 0;
        for (int k = packets - 1; k >= 0; k--) {
            wireAfter += w[k];
            tail = Math.max(tail, a[k] + wireAfter);
        }
        if (tail - a[0] > e) {
            return -1;
        }
        long latency = p.get(FabricParams.LINK_LATENCY);
        long ack = link.transmitTimePs(header + p.get(FabricParams.LINK_AETH_BYTES));
        if (n > window && tail + 2 * latency + ack + 2 * pcie > window * e) {
            return -1;
        }
        return pcie + (long) (n - 1) * e + tail + p.get(FabricParams.LINK_LATENCY);
    }

    /**
     * Runs the benchmark.
     *
     * @param p the parameters
     * @param n the number of writes
     * @param bytes the size of each write
     * @param window the writes outstanding at once: the first ones are posted at time 0, then each completion
     *     posts the next
     * @return the figures
     */
    public static Result run(Params p, int n, long bytes, int window) {
        long start = System.nanoTime();
        Simulator sim = new Simulator();
        TopologyBuilder shape = TopologyBuilder.backToBack("h");
        List<String> problems = new ArrayList<>();
        Topology topology = shape.build(problems);
        TraceSource<TraceEvent> trace = new TraceSource<>("bench"); // no subscriber: tracing costs nothing
        Fabric fabric = new Fabric(sim, topology, p, Map.of(), new RandomStreams(1), trace);
        Hca a = fabric.hosts().get(0).hca();
        Hca b = fabric.hosts().get(1).hca();
        QueuePair qa = a.createQueuePair("a");
        QueuePair qb = b.createQueuePair("b");
        BenchQueuePair la = new BenchQueuePair(sim);
        qa.setListener(la);
        qb.setListener(new BenchQueuePair(sim));
        qa.connect(qb);
        qb.connect(qa);
        long src = a.memory().allocate(bytes);
        long dst = b.memory().allocate(bytes);
        byte[] pattern = new byte[(int) bytes];
        for (int i = 0; i < pattern.length; i++) {
            pattern[i] = (byte) (i * 31 + 7);
        }
        a.memory().cpuWrite(src, pattern);
        long[] seg = {src};
        long[] len = {bytes};
        // Like perftest's ib_write_bw: a window of posted writes; each completion posts the next one.
        long[] posted = {0};
        Runnable post = () -> {
            long i = posted[0]++;
            a.postRequest(new WorkRequest(i, WorkRequest.RDMA_WRITE, qa, i, 0, seg, len, dst, 1));
        };
        la.onCompletion = () -> {
            if (posted[0] < n) {
                post.run();
            }
        };
        for (int i = 0; i < Math.min(n, window); i++) {
            post.run();
        }
        sim.run();
        long packets = 0;
        for (Port port : fabric.ports()) {
            packets += port.packetsSent();
        }
        Port ab = fabric.ports().get(0);
        long predicted = predictLastArrival(p, n, bytes, window);
        byte[] landed = new byte[(int) bytes];
        b.memory().dmaRead(dst, landed, 0, landed.length);
        long failed = la.failed + (java.util.Arrays.equals(landed, pattern) ? 0 : 1);
        return new Result(n, la.completed, failed, packets, sim.eventsExecuted(), predicted, ab.lastDeliveryPs(),
                la.lastCompletionPs, predicted >= 0 ? "hca_engine" : "not_engine_bound", System.nanoTime() - start,
                fabric.packetPool().created());
    }
}

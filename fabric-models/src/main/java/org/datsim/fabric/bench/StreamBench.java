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
     * @param regime which resource bounds the stream ({@code hca_engine} or {@code link}), or {@code no_closed_form}
     *     when the closed form does not apply
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
     * of an idle HCA, back to back, with the buffers registered (no cache misses). The doorbells reach the HCA at
     * {@code L} (pcie.latency). The send engine is pipelined: write {@code i} is taken up at {@code L + i E} with
     * {@code E = max(D, wqe_interval)}, {@code D = sum dma(r_m)} the payload DMA of one write, read in requests
     * {@code r_m} of pcie.max_read_request (the engine takes the next write just early enough for its payload to
     * follow without a gap). Packet {@code k} of a write is ready when the read request holding it is in (requests
     * as large as packets at least, else no closed form), at
     * {@code a_k = wqe_process + 4L + 2R + dma(wqe_bytes) + sum_{m<=m(k)} dma(r_m)} after it is taken up (WQE fetch
     * and payload read round trips, R = pcie.dma_read_delay each) and occupies the wire for {@code w_k} (headers +
     * payload at the link rate; one write
     * takes {@code W = sum w_k}). The link is a FIFO: the last bit leaves at the largest, over every packet, of its
     * ready time plus the wire time of it and every later packet, which for these periodic ready times is
     * {@code L + T + (N-1) max(E, W)} with {@code T = max_k (a_k + sum_{j>=k} w_j)}, and arrives one link latency
     * {@code P} later (link.latency and both HCAs' hca.phy_latency). The bottleneck is the engine if
     * {@code E >= W}, else the link.
     *
     * <p>Writes are posted in a window: the completion of write {@code j} posts write {@code j + window}; its
     * doorbell reaches the HCA {@code X = P + rx + dma(piece_last) + w_ack + P + rx + 2L} after write {@code j}'s last
     * bit left (arrival, receive pipeline, the last pcie.max_payload piece's DMA write issued (the responder writes as
     * data arrives), ACK, receive pipeline, CQE write, doorbell). The closed
     * form holds if that is never late: for an engine bottleneck not later than the engine would take the write up
     * ({@code T + X <= window E}); for a link bottleneck early enough for every packet to be ready when the link
     * would start it ({@code X + a_k - sum_{j<k} w_j <= (window - 1) W} for every k). It also needs the responder's
     * DMA writes to keep up with arrivals (PCIe no slower than the link over a piece and over a packet).
     *
     * @param p the parameters
     * @param n the number of writes
     * @param bytes the size of each write
     * @param window the writes outstanding at once
     * @return the arrival time in picoseconds, or -1 if the window lets the stream wait or the closed form does not
     *     apply for another reason
     */
    public static long predictLastArrival(Params p, int n, long bytes, int window) {
        long pcie = p.get(FabricParams.PCIE_LATENCY);
        DataRate pcieRate = p.rate(FabricParams.PCIE_BANDWIDTH);
        DataRate link = p.rate(FabricParams.LINK_BANDWIDTH);
        long mtu = p.get(FabricParams.HCA_MTU);
        long header = p.get(FabricParams.LINK_HEADER_BYTES);
        long reth = p.get(FabricParams.LINK_RETH_BYTES);
        long mttEntries = p.get(FabricParams.HCA_MTT_ENTRIES);
        if (mttEntries > 0 && bytes / p.get(FabricParams.HCA_MTT_PAGE) + 2 > mttEntries) {
            return -1; // the buffer's translations do not all stay in the MTT cache
        }
        long readRequest = p.get(FabricParams.PCIE_MAX_READ_REQUEST);
        long piece = p.get(FabricParams.PCIE_MAX_PAYLOAD);
        long readDelay = p.get(FabricParams.PCIE_DMA_READ_DELAY);
        if (readRequest < mtu) {
            return -1; // packets stream out while their later read requests are read: no simple form
        }
        int packets = (int) Math.max(1, (bytes + mtu - 1) / mtu);
        long[] a = new long[packets];
        long[] w = new long[packets];
        long t = p.get(FabricParams.HCA_WQE_PROCESS) + 4 * pcie + 2 * readDelay
                + pcieRate.transmitTimePs(p.get(FabricParams.HCA_WQE_BYTES));
        long payloadDma = 0;
        long read = 0;
        long lastPiece = 0;
        for (int k = 0; k < packets; k++) {
            long off = k * mtu;
            long len = Math.min(mtu, bytes - off);
            while (read <= off) { // the read request holding the packet (read requests hold whole packets)
                long end = Math.min(bytes, (read / readRequest + 1) * readRequest);
                long dma = pcieRate.transmitTimePs(end - read);
                t += dma;
                payloadDma += dma;
                read = end;
            }
            a[k] = t;
            w[k] = link.transmitTimePs(header + len + (k == 0 ? reth : 0));
            // The responder writes the payload as it arrives, piece by piece: it keeps up if PCIe is not slower than
            // the link over a piece and over the packet.
            long firstPiece = Math.min(piece, len);
            if (pcieRate.transmitTimePs(firstPiece) > link.transmitTimePs(firstPiece)
                    || pcieRate.transmitTimePs(len) > link.transmitTimePs(len)) {
                return -1; // the responder's DMA writes queue up: the ACK timing has no simple form
            }
            lastPiece = len - (len - 1) / piece * piece;
        }
        long lastDma = pcieRate.transmitTimePs(lastPiece);
        long e = Math.max(payloadDma, p.get(FabricParams.HCA_WQE_INTERVAL)); // the engine's time per write
        long tail = 0;
        long wireAfter = 0;
        for (int k = packets - 1; k >= 0; k--) {
            wireAfter += w[k];
            tail = Math.max(tail, a[k] + wireAfter);
        }
        long wire = wireAfter; // W, the wire time of one write
        long latency = p.get(FabricParams.LINK_LATENCY) + 2 * p.get(FabricParams.HCA_PHY_LATENCY);
        long rx = p.get(FabricParams.HCA_RX_PROCESS);
        long ack = link.transmitTimePs(header + p.get(FabricParams.LINK_AETH_BYTES));
        long x = 2 * latency + 2 * rx + lastDma + ack + 2 * pcie;
        if (n > window) {
            if (e >= wire) {
                if (tail + x > window * e) {
                    return -1;
                }
            } else {
                long before = 0;
                for (int k = 0; k < packets; k++) {
                    if (x + a[k] - before > (window - 1) * wire) {
                        return -1;
                    }
                    before += w[k];
                }
            }
        }
        return pcie + tail + (long) (n - 1) * Math.max(e, wire) + latency;
    }

    /**
     * Which resource bounds a stream of writes of one size: {@code hca_engine} (the send engine's payload DMA or
     * {@code hca.wqe_interval}) or {@code link}.
     *
     * @param p the parameters
     * @param bytes the size of each write
     * @return the bottleneck's name
     */
    public static String bottleneck(Params p, long bytes) {
        DataRate pcieRate = p.rate(FabricParams.PCIE_BANDWIDTH);
        DataRate link = p.rate(FabricParams.LINK_BANDWIDTH);
        long mtu = p.get(FabricParams.HCA_MTU);
        int packets = (int) Math.max(1, (bytes + mtu - 1) / mtu);
        long dma = 0;
        long wire = 0;
        for (int k = 0; k < packets; k++) {
            long len = Math.min(mtu, bytes - k * mtu);
            wire += link.transmitTimePs(p.get(FabricParams.LINK_HEADER_BYTES) + len
                    + (k == 0 ? p.get(FabricParams.LINK_RETH_BYTES) : 0));
        }
        long request = p.get(FabricParams.PCIE_MAX_READ_REQUEST);
        for (long read = 0; read < bytes; read += request) { // the payload is read request by request
            dma += pcieRate.transmitTimePs(Math.min(request, bytes - read));
        }
        return Math.max(dma, p.get(FabricParams.HCA_WQE_INTERVAL)) >= wire ? "hca_engine" : "link";
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
        return run(p, n, bytes, window, sim -> { });
    }

    /**
     * Runs the benchmark, handing its simulator to {@code started} before it runs (for a progress display on
     * another thread, which only reads the clock and the event count).
     *
     * @param p the parameters
     * @param n the number of writes
     * @param bytes the size of each write
     * @param window the writes outstanding at once: the first ones are posted at time 0, then each completion
     * @param started told the simulator before the run
     * @return the figures
     */
    public static Result run(Params p, int n, long bytes, int window,
            java.util.function.Consumer<Simulator> started) {
        long start = System.nanoTime();
        Simulator sim = new Simulator();
        started.accept(sim);
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
        qa.setSendQueueDepth(window); // the send queue holds the window: each completion's slot takes the next write
        long src = a.memory().allocate(bytes);
        long dst = b.memory().allocate(bytes);
        a.registerMemory(src, bytes); // as ib_write_bw registers its buffers: translations in the MTT cache
        b.registerMemory(dst, bytes);
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
            a.postRequest(qa.requestSlot(i, WorkRequest.RDMA_WRITE, i, 0, seg, len, dst, 1));
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
                la.lastCompletionPs, predicted >= 0 ? bottleneck(p, bytes) : "no_closed_form", System.nanoTime() - start,
                fabric.packetPool().created());
    }
}

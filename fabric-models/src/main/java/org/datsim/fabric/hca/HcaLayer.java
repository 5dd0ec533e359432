package org.datsim.fabric.hca;

import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.time.DataRate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.PacketPool;
import org.datsim.fabric.memory.HostMemory;

/**
 * The first layer of an {@link Hca}: what every part of it needs (simulator, trace, identity, memory, PCIe, MTU,
 * header sizes, the packet pool), and the methods a part calls on a part above it.
 *
 * <p>The parts of an Hca, each a class with one job, are the layers of one object: {@link OnChipCaches},
 * {@link PayloadReader}, {@link SendEngine}, {@link Responder}, {@link ResponseEngine}, {@link ReliableTransport},
 * {@link Completions}, {@link ReceivePipeline}, then {@link Hca} itself, each extending the one before. The order
 * carries no meaning: a part is not a kind of the part below it. Layers let the parts call each other as plain
 * methods of one object, so the packet path crosses from one part to another at no cost (with a field per part,
 * every crossing loaded the part first: bench stream ran about 3% slower). Each part keeps its own state private;
 * a part calls a part below it directly, and one above it through the abstract methods declared here.
 */
abstract class HcaLayer {

    final Simulator sim;
    final String hostName;
    final int hostId;
    final HostMemory memory;
    final TraceSource<TraceEvent> trace;
    final long pcieLatency;
    final DataRate pcieRate;
    final int mtu;
    /** link.header_bytes: the headers every packet carries. */
    final int header;
    /** link.reth_bytes: the RDMA extended header (first packet of an RDMA Write, RDMA Read request). */
    final int reth;
    /** link.aeth_bytes: the ACK extended header (ACK, NAK, RDMA Read response, atomic acknowledgement). */
    final int aeth;
    /** Where packets come from: the HCA's own pool until {@link Hca#setPacketPool} gives it the fabric's. */
    PacketPool pool = new PacketPool();

    HcaLayer(Simulator sim, String hostName, int hostId, HostMemory memory, Params params,
            TraceSource<TraceEvent> trace) {
        this.sim = sim;
        this.hostName = hostName;
        this.hostId = hostId;
        this.memory = memory;
        this.trace = trace;
        this.pcieLatency = params.get(FabricParams.PCIE_LATENCY);
        this.pcieRate = params.rate(FabricParams.PCIE_BANDWIDTH);
        this.mtu = (int) params.get(FabricParams.HCA_MTU);
        this.header = (int) params.get(FabricParams.LINK_HEADER_BYTES);
        this.reth = (int) params.get(FabricParams.LINK_RETH_BYTES);
        this.aeth = (int) params.get(FabricParams.LINK_AETH_BYTES);
    }

    /** The packets of a message of {@code length} bytes (one at least). */
    final int packetCount(long length) {
        return (int) Math.max(1, (length + mtu - 1) / mtu);
    }

    // ---------------------------------------------------------------- implemented by the layers above

    /** {@link Hca}: sends a packet to the port or through the internal loopback. */
    abstract void transmit(Packet p);

    /** {@link ReceivePipeline}: schedules a DMA write into host memory; returns the delay until it lands. */
    abstract long dmaWriteDelay(int len, long stall);

    /** {@link Completions}: a request operation has finished on the transport with a status. */
    abstract void transportDone(WorkRequest wr, int status);

    /** {@link Completions}: puts a queue pair into the error state (see {@link Hca#fail}). */
    abstract void fail(QueuePair qp, WorkRequest failing, int status);

    /** {@link Completions}: a receive fails and its queue pair with it. */
    abstract void failReceive(QueuePair qp, WorkRequest recv, int status);

    /** {@link ReliableTransport}: a request starts on a queue pair with nothing in flight; its ACK timer starts. */
    abstract void startAckTimer(QueuePair qp, long now);
}

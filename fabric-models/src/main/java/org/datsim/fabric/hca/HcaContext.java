package org.datsim.fabric.hca;

import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.time.DataRate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.link.PacketPool;
import org.datsim.fabric.memory.HostMemory;

/**
 * What every part of an {@link Hca} needs and nothing else: the simulator, the trace, the host's identity and memory,
 * the PCIe figures, the MTU and header sizes, and the packet pool. One per HCA, made by {@link Hca} and given to each
 * part, which keeps what it uses; only the pool and the link rate change after construction
 * ({@link Hca#setPacketPool}, {@link Hca#attach}, before the run).
 */
final class HcaContext {

    final Simulator sim;
    final String hostName;
    final int hostId;
    final HostMemory memory;
    final TraceSource<TraceEvent> trace;
    final long pcieLatency;
    /** pcie.dma_read_delay: the host's part of a DMA read, besides its two PCIe crossings. */
    final long readDelay;
    /** pcie.max_read_request: payloads are DMA-read in requests of this many bytes, aligned to the message. */
    final int readRequest;
    /** pcie.max_payload: arriving payload is DMA-written in pieces of this many bytes. */
    final int writePiece;
    final DataRate pcieRate;
    final int mtu;
    /** link.header_bytes: the headers every packet carries. */
    final int header;
    /** The congestion control's header on data packets and ACKs (cc.header_bytes, or the algorithm's; 0 without). */
    final int ccHeader;
    /** What cc.header_bytes adds to an ACK: beyond link.ack_padding_bytes, which it fills first. */
    final int ackCcHeader;
    /** link.reth_bytes: the RDMA extended header (first packet of an RDMA Write, RDMA Read request). */
    final int reth;
    /** link.aeth_bytes: the ACK extended header (ACK, NAK, RDMA Read response, atomic acknowledgement). */
    final int aeth;
    /** Where packets come from: the HCA's own pool until {@link Hca#setPacketPool} gives it the fabric's. */
    PacketPool pool = new PacketPool();
    /**
     * Payloads are kept by value when they are read (shared pages or a copy), never by reference to this host's
     * memory until they are placed: on a partitioned fabric the placing host may run on another thread ({@link
     * Hca#setPayloadByValue}).
     */
    boolean payloadByValue;
    /** The rate of the HCA's link, at which arriving payload streams in; set by {@link Hca#attach}, null before. */
    DataRate linkRate;
    /** The HCA's port, once attached (null until then, and for an HCA without one). */
    org.datsim.fabric.link.Port port;
    /** The placements of RDMA Writes still in flight, kept only in explored runs ({@link HcaChoices}). */
    HcaChoices.Placements placements;

    HcaContext(Simulator sim, String hostName, int hostId, HostMemory memory, Params params,
            TraceSource<TraceEvent> trace) {
        this.sim = sim;
        this.hostName = hostName;
        this.hostId = hostId;
        this.memory = memory;
        this.trace = trace;
        this.pcieLatency = params.get(FabricParams.PCIE_LATENCY);
        this.pcieRate = params.rate(FabricParams.PCIE_BANDWIDTH);
        this.readDelay = params.get(FabricParams.PCIE_DMA_READ_DELAY);
        this.readRequest = (int) params.get(FabricParams.PCIE_MAX_READ_REQUEST);
        this.writePiece = (int) params.get(FabricParams.PCIE_MAX_PAYLOAD);
        this.mtu = (int) params.get(FabricParams.HCA_MTU);
        this.header = (int) params.get(FabricParams.LINK_HEADER_BYTES);
        this.reth = (int) params.get(FabricParams.LINK_RETH_BYTES);
        this.aeth = (int) params.get(FabricParams.LINK_AETH_BYTES);
        this.ccHeader = org.datsim.fabric.cc.CongestionControl.headerBytes(params);
        this.ackCcHeader = (int) Math.max(0, ccHeader - params.get(FabricParams.LINK_ACK_PADDING_BYTES));
    }

    /** The packets of a message of {@code length} bytes (one at least). */
    int packetCount(long length) {
        return (int) Math.max(1, (length + mtu - 1) / mtu);
    }
}

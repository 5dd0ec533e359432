package org.datsim.fabric.hca;

import org.datsim.core.engine.Simulator;
import org.datsim.core.time.DataRate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.link.PacketPool;
import org.datsim.fabric.memory.HostMemory;

/**
 * A part of an {@link Hca}: what every part needs of its host (simulator, trace, identity, memory, PCIe, MTU and
 * header sizes) and its fellow parts. The fields are copies of the Hca's, so that the packet path reaches each of
 * them with one field load, as when the parts were one class.
 */
abstract class HcaPart {

    final Hca hca;
    final Simulator sim;
    final TraceSource<TraceEvent> trace;
    final String hostName;
    final int hostId;
    final HostMemory memory;
    final long pcieLatency;
    final DataRate pcieRate;
    final int mtu;
    /** link.header_bytes: the headers every packet carries. */
    final int header;
    /** link.reth_bytes: the RDMA extended header (first packet of an RDMA Write, RDMA Read request). */
    final int reth;
    /** link.aeth_bytes: the ACK extended header (ACK, NAK, RDMA Read response, atomic acknowledgement). */
    final int aeth;

    // Set by link(): the packet pool and the fellow parts.
    PacketPool pool;
    SendEngine engine;
    PayloadReader payloads;
    OnChipCaches caches;
    ReceivePipeline rx;
    Responder responder;
    ResponseEngine responses;
    ReliableTransport transport;
    Completions completions;

    HcaPart(Hca hca) {
        this.hca = hca;
        this.sim = hca.sim;
        this.trace = hca.trace;
        this.hostName = hca.hostName;
        this.hostId = hca.hostId;
        this.memory = hca.memory;
        this.pcieLatency = hca.pcieLatency;
        this.pcieRate = hca.pcieRate;
        this.mtu = hca.mtu;
        this.header = hca.header;
        this.reth = hca.reth;
        this.aeth = hca.aeth;
    }

    /** Copies the packet pool and the fellow parts from the Hca; called once they all exist and when the pool changes. */
    final void link() {
        pool = hca.pool;
        engine = hca.engine;
        payloads = hca.payloads;
        caches = hca.caches;
        rx = hca.rx;
        responder = hca.responder;
        responses = hca.responses;
        transport = hca.transport;
        completions = hca.completions;
    }

    /** The packets of a message of {@code length} bytes (one at least). */
    final int packetCount(long length) {
        return (int) Math.max(1, (length + mtu - 1) / mtu);
    }
}

package org.datsim.fabric;

import java.util.List;
import org.datsim.core.param.ParamSpec;
import org.datsim.fabric.cc.CcParams;

/**
 * The catalogue of fabric parameters: every timing, rate and size the models use, declared once with its unit,
 * default and meaning. Scenarios override them by name under {@code fabric.params}; {@code datsim params} prints
 * them. The defaults describe a 100 Gb/s InfiniBand EDR HCA on PCIe Gen3 x16; they are plausible round figures, not
 * calibrated: {@link FabricPresets} holds named sets of values, and its {@code ib-edr} is calibrated to perftest.
 */
public final class FabricParams {

    private FabricParams() {
    }

    /** Link signalling rate. */
    public static final ParamSpec LINK_BANDWIDTH = ParamSpec.rate("link.bandwidth", "100Gbps",
            "Data rate of every link, each direction");
    /** Link propagation delay. */
    public static final ParamSpec LINK_LATENCY = ParamSpec.time("link.latency", "50ns",
            "Propagation delay of a link from the last bit sent to the last bit received, except the ports' PHYs"
                    + " counted elsewhere: an HCA's port adds hca.phy_latency at its end, a switch's ports are in"
                    + " switch.latency; with hca.phy_latency 0 (the default) it is the whole delay between the ports,"
                    + " as before hca.phy_latency existed. The presets set it to the cable alone (about 5 ns/m)");
    /** The unit packet times on the wire and rate-limited send intervals are cut to (0: exact, to the ps). */
    public static final ParamSpec LINK_TIME_RESOLUTION = ParamSpec.time("link.time_resolution", "0ps",
            "The unit a packet's time on the wire, and a congestion-controlled queue pair's interval between two"
                    + " packets, are rounded down to; 0 keeps them exact (to the picosecond). ns-3, and so HPCC's"
                    + " simulator, keeps time in whole nanoseconds and truncates: a 1048-byte packet takes 83 ns at"
                    + " 100 Gb/s instead of 83.84, a 60-byte ACK 4 ns instead of 4.8, 20 ns instead of 20.96 at"
                    + " 400 Gb/s; the hpcc-ns3 preset sets 1ns to model that");
    /** Per-packet transport headers. */
    public static final ParamSpec LINK_HEADER_BYTES = ParamSpec.bytes("link.header_bytes", "26B", 0, 4096,
            "Header bytes on every packet (the default: InfiniBand LRH 8 + BTH 12 + ICRC 4 + VCRC 2)");
    /** Extended transport header of RDMA requests. */
    public static final ParamSpec LINK_RETH_BYTES = ParamSpec.bytes("link.reth_bytes", "16B", 0, 4096,
            "Extra header bytes on the first packet of an RDMA Write and on an RDMA Read request (RETH)");
    /** Padding of an ACK that a congestion control's header fills first. */
    public static final ParamSpec LINK_ACK_PADDING_BYTES = ParamSpec.bytes("link.ack_padding_bytes", "0B", 0, 4096,
            "Bytes of an ACK (or NAK) that only pad it to the link's smallest frame: a congestion control's header"
                    + " (cc.header_bytes) fills them before it adds to the ACK. HPCC's simulator pads its 46-byte ACK"
                    + " to 60 and its INT header (42 bytes) fills that padding, so an ACK under hpcc is 88 bytes, under"
                    + " timely 60; the hpcc-ns3 preset sets 14");
    /** A PFC frame's bytes on the wire, and whether it waits for the packet on the wire (0: neither). */
    public static final ParamSpec LINK_PFC_FRAME_BYTES = ParamSpec.bytes("link.pfc_frame_bytes", "0B", 0, 4096,
            "0: a PFC PAUSE or RESUME takes effect one propagation delay after the switch sends it, taking no time on"
                    + " the wire and not waiting for the packet on it (the model as it has always been). More than 0:"
                    + " the frame leaves once the packet on the wire of the switch's port has ended (ahead of any"
                    + " packet queued behind it), takes this many bytes' time on the wire (rounded by"
                    + " link.time_resolution), then the propagation delay. HPCC's simulator sends its PFC frame as a"
                    + " 43-byte packet (PauseHeader 9, IPv4 20, its 14-byte L2) in the port's highest-priority queue;"
                    + " the hpcc-ns3 preset sets 43B");
    /** Acknowledgement extended header. */
    public static final ParamSpec LINK_AETH_BYTES = ParamSpec.bytes("link.aeth_bytes", "4B", 0, 4096,
            "Extra header bytes on ACK, NAK and RDMA Read response packets (AETH)");
    /** Switch forwarding latency. */
    public static final ParamSpec SWITCH_LATENCY = ParamSpec.time("switch.latency", "100ns",
            "Forwarding latency of a switch, from the last bit received (store_and_forward) or the first bit"
                    + " received (cut_through) to the packet joining the output queue: the port-to-port latency of the"
                    + " switch's data sheet, the PHYs (SerDes, FEC) of its input and output ports included, so a hop"
                    + " costs this on top of the cable's link.latency");
    /** PHY latency of an HCA port. */
    public static final ParamSpec HCA_PHY_LATENCY = ParamSpec.time("hca.phy_latency", "0ns",
            "Latency of an HCA port's PHY (SerDes, PCS, FEC) that a packet crosses once as it leaves and once as"
                    + " it arrives: a link with an HCA at one end takes it once, back to back twice, on top of"
                    + " link.latency; 0 leaves it to link.latency (as before it existed)");
    /** ECMP choice of switches. */
    public static final ParamSpec SWITCH_ECMP = ParamSpec.choice("switch.ecmp", "datsim",
            "How a switch picks one of the equal-cost output ports of a packet: datsim = a fixed hash of the queue"
                    + " pair's flow label salted per switch; hpcc = as HPCC's simulator (switch-node.cc): Murmur3 of"
                    + " the source and destination IPs (0x0b000001 + node << 8) and the UDP ports, seeded with the"
                    + " switch's node number, over the next hops in the order of its routing set-up (third.cc), so"
                    + " that flows take HPCC's paths (nodes are numbered as in an HPCC topology file, h<N> and s<N>)",
            "datsim", "hpcc");
    /** Switch forwarding mode. */
    public static final ParamSpec SWITCH_MODE = ParamSpec.choice("switch.mode", "store_and_forward",
            "store_and_forward: a switch forwards a packet once its last bit has arrived; cut_through: once its"
                    + " first bit has arrived (its last bit still cannot leave before it has arrived)",
            "store_and_forward", "cut_through");
    /** Switch buffer per input port. */
    public static final ParamSpec SWITCH_BUFFER = ParamSpec.bytes("switch.buffer", "128KiB", 1024, 1L << 30,
            "Buffer of a switch per input port: the bytes of the packets that arrived on a port and have not yet"
                    + " fully left their output port (InfiniBand credit; the PFC buffer whose xoff/xon thresholds"
                    + " pause the upstream port)");
    /** Link-level flow control. */
    public static final ParamSpec LINK_FLOW_CONTROL = ParamSpec.choice("link.flow_control", "ib_credits",
            "Lossless link-level flow control into switches: ib_credits = InfiniBand credit per virtual lane (one"
                    + " VL), a port sends only while the switch has buffer for the whole packet, credit returns a"
                    + " propagation delay after the packet leaves the switch; pfc = RoCE priority flow control (one"
                    + " priority), PAUSE at pfc.xoff buffered bytes and RESUME at pfc.xon, each a propagation delay"
                    + " to take effect; none = no back-pressure and unbounded switch buffers",
            "ib_credits", "pfc", "none");
    /** PFC pause threshold. */
    public static final ParamSpec PFC_XOFF = ParamSpec.bytes("pfc.xoff", "96KiB", 0, 1L << 30,
            "PFC: buffered bytes of a switch input at which it pauses the upstream port; switch.buffer minus xoff is"
                    + " the headroom, which must absorb what arrives while the PAUSE travels (2 x latency x rate"
                    + " + 2 packets), or packets are dropped (counted per port) and the requesters recover them"
                    + " by retransmission (sequence-error NAKs, hca.ack_timeout, hca.retry_count)");
    /** PFC resume threshold. */
    public static final ParamSpec PFC_XON = ParamSpec.bytes("pfc.xon", "64KiB", 0, 1L << 30,
            "PFC: buffered bytes of a paused switch input at or below which it resumes the upstream port");
    /** Switch buffer organisation. */
    public static final ParamSpec SWITCH_BUFFER_MODE = ParamSpec.choice("switch.buffer_mode", "per_input",
            "per_input: each input port has its own switch.buffer and PFC pauses at the static pfc.xoff/pfc.xon;"
                    + " shared: each switch has one switch.shared_buffer with per-input accounting, a reserve"
                    + " (pfc.reserve) and a headroom (pfc.headroom) per input and a shared pool, and PFC pauses an"
                    + " input whose shared bytes reach alpha x the free shared pool (dynamic threshold, as HPCC's"
                    + " switch-mmu.cc; needs link.flow_control=pfc)", "per_input", "shared");
    /** Shared buffer size. */
    public static final ParamSpec SWITCH_SHARED_BUFFER = ParamSpec.bytes("switch.shared_buffer", "32MiB", 1024,
            1L << 40, "switch.buffer_mode=shared: the buffer of each switch, shared by its inputs (reserves,"
                    + " headrooms and the shared pool); default HPCC's run.py BUFFER_SIZE 32 (MB, x 1024 x 1024)");
    /** Dynamic PFC threshold alpha. */
    public static final ParamSpec PFC_ALPHA_SHIFT = ParamSpec.integer("pfc.alpha_shift", 3, 0, 30,
            "switch.buffer_mode=shared: alpha = 2^-shift of the dynamic PFC threshold (threshold = alpha x the free"
                    + " shared pool) for an input at the hosts' link rate; an input k times faster gets a shift"
                    + " smaller by log2(k) (at least 0), so a larger alpha; default 3 (alpha 1/8) as HPCC's"
                    + " third.cc (pfc_a_shift)");
    /** Per-input reserve. */
    public static final ParamSpec PFC_RESERVE = ParamSpec.bytes("pfc.reserve", "4KiB", 0, 1L << 30,
            "switch.buffer_mode=shared: bytes of each input held outside the shared pool (its guaranteed"
                    + " minimum); HPCC's switch-mmu.cc reserve (4 x 1024)");
    /** Resume hysteresis. */
    public static final ParamSpec PFC_RESUME_OFFSET = ParamSpec.bytes("pfc.resume_offset", "3KiB", 0, 1L << 30,
            "switch.buffer_mode=shared: a paused input resumes its upstream port once it holds no headroom bytes"
                    + " and its shared bytes are 0 or at least this far below the dynamic threshold; HPCC's"
                    + " switch-mmu.cc resume_offset (3 x 1024)");
    /** Per-input headroom. */
    public static final ParamSpec PFC_HEADROOM = ParamSpec.bytes("pfc.headroom", "0B", 0, 1L << 30,
            "switch.buffer_mode=shared: bytes of each input that absorb what arrives after its PAUSE was sent;"
                    + " 0 = derived per port as HPCC's third.cc, 3 x link rate x propagation delay, and at least 2"
                    + " largest packets");
    /** A traffic class for acknowledgements. */
    public static final ParamSpec LINK_CONTROL_PRIORITY = ParamSpec.bool("link.control_priority", false,
            "ACKs, NAKs and CNPs travel in a traffic class of their own at every port (HCA and switch): served before"
                    + " data and not paused by PFC, which pauses the data class. Off: one class for every packet at"
                    + " the switches (what HPCC's simulator does whatever its ACK_HIGH_PRIO: that flag reaches only its"
                    + " NIC; see hca.control_first)");
    /** Control packets first at the HCAs only. */
    public static final ParamSpec HCA_CONTROL_FIRST = ParamSpec.bool("hca.control_first", false,
            "An HCA's port sends the ACKs, NAKs and CNPs it generates before its waiting data packets, and PFC,"
                    + " which pauses its data, does not pause them: HPCC's NIC, whose ACK queue is served first and"
                    + " not held by a pause of the data priority under ACK_HIGH_PRIO 1 (in HPCC's simulator that"
                    + " flag changes only this: its switches queue ACKs with the data). link.control_priority does"
                    + " it at every port, switches included");
    /** ECN marking on or off. */
    public static final ParamSpec ECN_ENABLED = ParamSpec.bool("ecn.enabled", false,
            "Switches mark data packets (Send, RDMA Write, RDMA Read response: RoCE's ECN-capable packets)"
                    + " Congestion Experienced as they leave an egress queue, RED style on the bytes still queued"
                    + " there (ecn.kmin, ecn.kmax, ecn.pmax_percent), with a seeded random stream per switch, as"
                    + " HPCC's switch-node.cc (SwitchNotifyDequeue)");
    /** RED lower threshold. */
    public static final ParamSpec ECN_KMIN = ParamSpec.bytes("ecn.kmin", "400KB", 0, 1L << 40,
            "ECN: bytes queued at a 100 Gb/s egress above which packets are marked with a probability rising"
                    + " linearly to ecn.pmax_percent at ecn.kmax; scaled with the port's rate (a 400 Gb/s port uses"
                    + " 4 x this), as HPCC's run.py KMIN_MAP (100 x bw / 25 KB at bw Gb/s, KB = 1000 B)");
    /** RED upper threshold. */
    public static final ParamSpec ECN_KMAX = ParamSpec.bytes("ecn.kmax", "1600KB", 0, 1L << 40,
            "ECN: bytes queued at a 100 Gb/s egress above which every packet is marked; scaled with the port's"
                    + " rate like ecn.kmin; HPCC's run.py KMAX_MAP (400 x bw / 25 KB)");
    /** RED marking probability at kmax. */
    public static final ParamSpec ECN_PMAX_PERCENT = ParamSpec.integer("ecn.pmax_percent", 20, 0, 100,
            "ECN: the marking probability, in percent, reached at ecn.kmax; HPCC's run.py PMAX_MAP 0.2 (the DCQCN"
                    + " paper, Zhu et al. SIGCOMM 2015, uses 1% at 40 Gb/s)");
    /** In-band network telemetry. */
    public static final ParamSpec CC_INT = ParamSpec.bool("cc.int", false,
            "In-band network telemetry for HPCC (Li et al., SIGCOMM 2019): each switch egress appends to a data"
                    + " packet leaving its queue a hop record (bytes queued there, the port's transmitted-bytes"
                    + " counter, the time in ps, the link rate), at most 5 hops, as HPCC's switch-node.cc");
    /** Port time series. */
    public static final ParamSpec TRACE_PORT_SAMPLE_INTERVAL = ParamSpec.time("trace.port_sample_interval", "0ns",
            "Interval at which every switch port is sampled into the trace (port_sample: bytes queued, PFC pause"
                    + " state, ECN marks so far, link utilisation over the interval), shown as counter tracks per"
                    + " switch port in trace.json; 0 = no sampling");
    /** Port events. */
    public static final ParamSpec TRACE_PORT_EVENTS = ParamSpec.bool("trace.port_events", true,
            "Trace, as they happen, every PFC pause and resume of a port (pfc) and every change of the bytes queued at"
                    + " a switch's output port (port_queue): the port lanes of timeline.html and the port counter"
                    + " tracks of trace.json; false for long congested runs, whose trace grows by about two lines per"
                    + " packet queued per hop");
    /** Cache-miss lines. */
    public static final ParamSpec TRACE_CACHE_MISSES = ParamSpec.choice("trace.cache_misses", "auto",
            "Which HCA cache misses (QP context, MTT) are traced as cache_miss lines: auto (those of consumer"
                    + " processes' operations, not a workload's flows, whose misses would be most of the trace),"
                    + " all, or none; summary.json's hca_caches counts every miss whatever this says",
            "auto", "all", "none");
    /** PCIe one-way latency. */
    public static final ParamSpec PCIE_LATENCY = ParamSpec.time("pcie.latency", "150ns",
            "One-way latency between host memory or CPU and the HCA over PCIe (an MMIO doorbell, a posted DMA"
                    + " write; a DMA read costs two)");
    /** Host-side time of a DMA read. */
    public static final ParamSpec PCIE_DMA_READ_DELAY = ParamSpec.time("pcie.dma_read_delay", "0ns",
            "Time a DMA read spends in the host besides its two PCIe crossings (2 x pcie.latency): the root complex"
                    + " fetching the data from cache or memory. Every DMA read of the HCA pays it (WQE, payload, the"
                    + " responder's read of RDMA Read data and atomics); DMA writes are posted and do not");
    /** PCIe read request size. */
    public static final ParamSpec PCIE_MAX_READ_REQUEST = ParamSpec.bytes("pcie.max_read_request", "4KiB", 128, 4096,
            "Largest PCIe read request (MRRS): the HCA DMA-reads a payload in requests of this many bytes (aligned to"
                    + " the message) and packetises a request's data once all of it has arrived; a packet starts on"
                    + " the wire as soon as the request holding its first byte is in (cut through), and its last bit"
                    + " leaves no earlier than its last byte has been read");
    /** PCIe write size. */
    public static final ParamSpec PCIE_MAX_PAYLOAD = ParamSpec.bytes("pcie.max_payload", "256B", 128, 4096,
            "Largest PCIe write (MPS): the receiving HCA DMA-writes a packet's payload in pieces of this many bytes"
                    + " as they arrive (cut through), not once the whole packet is in");
    /** PCIe data rate. */
    public static final ParamSpec PCIE_BANDWIDTH = ParamSpec.rate("pcie.bandwidth", "128Gbps",
            "Usable PCIe data rate between host memory and the HCA (the default: Gen3 x16)");
    /** Path MTU. */
    public static final ParamSpec HCA_MTU = ParamSpec.bytes("hca.mtu", "4KiB", 256, 4096,
            "Path MTU: the largest payload of one packet");
    /** Per-WQE processing. */
    public static final ParamSpec HCA_WQE_PROCESS = ParamSpec.time("hca.wqe_process", "30ns",
            "Time the HCA's send engine spends on one work request besides DMA (parsing, scheduling, building"
                    + " headers); the engine takes up the next one after hca.wqe_interval");
    /** Send engine occupancy per WQE. */
    public static final ParamSpec HCA_WQE_INTERVAL = ParamSpec.time("hca.wqe_interval", "30ns",
            "Shortest time between two work requests the send engine takes up (its occupancy per WQE, which sets the"
                    + " message rate); below hca.wqe_process the processing of successive WQEs overlaps");
    /** WQE size. */
    public static final ParamSpec HCA_WQE_BYTES = ParamSpec.bytes("hca.wqe_bytes", "64B", 16, 4096,
            "Size of a send work-queue element fetched by DMA");
    /** Receive pipeline time. */
    public static final ParamSpec HCA_RX_PROCESS = ParamSpec.time("hca.rx_process", "0ns",
            "Time the HCA's receive pipeline spends on each arriving packet (header checks, QP lookup) before its"
                    + " data is DMA-written or its acknowledgement is generated");
    /** Transmit buffer of the send engine. */
    public static final ParamSpec HCA_TX_BUFFER = ParamSpec.bytes("hca.tx_buffer", "256KiB", 0, 1L << 40,
            "Bytes of packets that may wait for the link (DMA-read, or being read, and not yet on the wire): while"
                    + " that many wait, the send engine takes up no new work request, so a backlogged port holds"
                    + " the HCA back instead of the HCA reading ahead without bound; 0 for no bound. Under"
                    + " hca.arbitration packet the arbiter chooses a packet only while fewer bytes wait than the port"
                    + " sends during one payload read, plus a read request and a packet (it schedules close to the"
                    + " wire), and never more than this");
    /** Send engine arbitration. */
    public static final ParamSpec HCA_ARBITRATION = ParamSpec.choice("hca.arbitration", "request",
            "How the send engine shares the port among queue pairs: request: round-robin per work request, each"
                    + " request's payload read and sent whole before the next one's (one payload DMA channel);"
                    + " packet: round-robin per packet among the queue pairs allowed to send (rate limiter and"
                    + " window), each packet's payload read when it is chosen, as a ConnectX NIC and HPCC's simulator"
                    + " do; any cc.algorithm other than none implies packet", "request", "packet");
    /** When the packet arbiter chooses. */
    public static final ParamSpec HCA_ARBITER_AT = ParamSpec.choice("hca.arbiter_at", "read",
            "When the packet arbiter (hca.arbitration packet) chooses the next packet: read: as soon as fewer bytes"
                    + " wait for the link than the port sends during one payload read (see hca.tx_buffer), so the"
                    + " payload is read before the link frees, as a NIC that prefetches does; link_free: when the"
                    + " link has finished the packet before it and no ACK, NAK or CNP of the HCA waits (HPCC's"
                    + " simulator, whose NIC dequeues at each transmit-complete): the rate limiter, the window and the"
                    + " round-robin then decide at the instant the packet starts, and its timestamp is that instant",
            "read", "link_free");
    /** The packet arbiter's round-robin order. */
    public static final ParamSpec HCA_ARBITER_ORDER = ParamSpec.choice("hca.arbiter_order", "rotate",
            "The packet arbiter's round-robin (hca.arbitration packet): rotate: the queue pair served goes to the"
                    + " back, and one that gets work joins behind it; fixed: the queue pairs in the order they got"
                    + " work, each scan starting after the one served last, so one that gets work joins at the end of"
                    + " that order (HPCC's RdmaEgressQueue::GetNextQindex, m_rrlast)", "rotate", "fixed");
    /** When the packet arbiter looks again at queue pairs that may not send yet. */
    public static final ParamSpec HCA_ARBITER_WAKE = ParamSpec.choice("hca.arbiter_wake", "earliest",
            "When the packet arbiter (hca.arbitration packet) looks again after finding no queue pair that may send:"
                    + " earliest: at the earliest time one may (its WQE fetched, its rate limiter's next departure),"
                    + " and again at every ACK, CNP or controller timer; one_pending: as HPCC's NIC"
                    + " (QbbNetDevice::DequeueAndTransmit, m_nextSend): one look pending at most, scheduled only when"
                    + " none is, at the earliest next departure of the queue pairs with bytes left (those held by"
                    + " their window included) and only if that is later than now; a rate change moves a pending look"
                    + " earlier (HPCC's ChangeRate, UpdateNextAvail: the HPCC algorithm only) and starts none; an ACK"
                    + " and new work make the arbiter look now; a controller's timer alone does not",
            "earliest", "one_pending");
    /** Whether PFC holds an HCA's control class. */
    public static final ParamSpec HCA_CONTROL_PAUSED = ParamSpec.bool("hca.control_paused", false,
            "With hca.control_first: a PFC pause of the HCA's link holds its ACKs, NAKs and CNPs too (they are"
                    + " still sent before its data): HPCC's NIC under ACK_HIGH_PRIO 0 (run.py's hp and dctcp), whose"
                    + " ACK queue has the data's priority (RdmaEgressQueue::ack_q_idx 3). Off: a pause holds the data"
                    + " only (ACK_HIGH_PRIO 1)");
    /** Inline threshold. */
    public static final ParamSpec HCA_MAX_INLINE = ParamSpec.bytes("hca.max_inline", "0B", 0, 1024,
            "Largest Send or RDMA Write the provider posts inline: the CPU copies the payload into the WQE and"
                    + " writes both through the doorbell (BlueFlame), so the HCA fetches neither; 0 turns inline"
                    + " off");
    /** QP-context cache capacity. */
    public static final ParamSpec HCA_QPC_ENTRIES = ParamSpec.integer("hca.qpc_entries", 256, 0, 1 << 20,
            "Queue-pair contexts the HCA's on-chip cache holds; a QP whose context is not cached costs"
                    + " hca.qpc_miss_penalty on WQE processing and on packet arrival; 0 = unlimited (never misses)");
    /** QP-context cache replacement. */
    public static final ParamSpec HCA_QPC_POLICY = ParamSpec.choice("hca.qpc_policy", "lru",
            "Replacement policy of the QP-context cache: lru, fifo, or random (drawn from the run's seed)", "lru",
            "fifo", "random");
    /** QP-context miss penalty. */
    public static final ParamSpec HCA_QPC_MISS_PENALTY = ParamSpec.time("hca.qpc_miss_penalty", "300ns",
            "Stall of a QP-context cache miss: a DMA read of the context from host memory, one PCIe round trip"
                    + " (2 x pcie.latency in the presets)");
    /** MTT cache capacity. */
    public static final ParamSpec HCA_MTT_ENTRIES = ParamSpec.integer("hca.mtt_entries", 4096, 0, 1 << 24,
            "Memory translation/protection entries (one per registered page) the HCA's on-chip cache holds; each"
                    + " DMA of registered memory looks up every page it touches; 0 = unlimited (never misses)");
    /** MTT cache replacement. */
    public static final ParamSpec HCA_MTT_POLICY = ParamSpec.choice("hca.mtt_policy", "lru",
            "Replacement policy of the MTT/MPT cache: lru, fifo, or random (drawn from the run's seed)", "lru",
            "fifo", "random");
    /** MTT miss penalty. */
    public static final ParamSpec HCA_MTT_MISS_PENALTY = ParamSpec.time("hca.mtt_miss_penalty", "300ns",
            "Stall of an MTT/MPT cache miss: a DMA read of the missed page's block of hca.mtt_fetch_entries"
                    + " translation entries, one PCIe round trip (2 x pcie.latency in the presets); also the time a"
                    + " prefetch read takes to return");
    /** Translation entries per read. */
    public static final ParamSpec HCA_MTT_FETCH_ENTRIES = ParamSpec.integer("hca.mtt_fetch_entries", 8, 1, 4096,
            "Translation entries one MTT read returns: a miss reads the aligned block of this many consecutive"
                    + " entries (pages) holding the missed one in one PCIe read and caches them all (at most"
                    + " hca.mtt_entries - 1 besides the missed one). 8 = 64 bytes of 8-byte ConnectX MTT entries, the"
                    + " granule in which the mlx5 driver lays out and writes them (MLX5_UMR_MTT_ALIGNMENT 0x40,"
                    + " MLX5_UMR_MTT_NUM_ENTRIES_ALIGNMENT); 1 = one entry per read, a stall per page missed");
    /** Sequential translation prefetch. */
    public static final ParamSpec HCA_MTT_PREFETCH_BLOCKS = ParamSpec.integer("hca.mtt_prefetch_blocks", 1, 0, 64,
            "Blocks of hca.mtt_fetch_entries translations the HCA reads ahead of a DMA: when a DMA misses a page or"
                    + " uses the first page of a block, the entries of the next blocks within the DMA's buffer (its"
                    + " scatter/gather segment or remote range) not cached are read at once, without stalling,"
                    + " and can be used hca.mtt_miss_penalty later (a DMA that gets there sooner waits for the rest);"
                    + " no more than hca.mtt_entries holds beside the block in use and the one before it (at most"
                    + " hca.mtt_entries / hca.mtt_fetch_entries - 2); 0 = no prefetch");
    /** Translation page size. */
    public static final ParamSpec HCA_MTT_PAGE = ParamSpec.bytes("hca.mtt_page_size", "4KiB", 512, 1L << 30,
            "Page size of memory registration: one MTT entry translates one page (a power of two)");
    /** Memory-window bind time. */
    public static final ParamSpec HCA_BIND_TIME = ParamSpec.time("hca.bind_time", "200ns",
            "Time the HCA takes to execute an RMR bind (update its protection tables) after fetching the WQE; the"
                    + " send engine meanwhile goes on with other queue pairs");
    /** Bind completion event. */
    public static final ParamSpec PROVIDER_BIND_EVENT = ParamSpec.choice("provider.bind_completion_event",
            "rmr_bind", "How an RMR bind completes: rmr_bind = DAT_RMR_BIND_COMPLETION_EVENT (DAT 1.2, OFA dapl);"
                    + " dto_bind_mw = DAT_DTO_COMPLETION_EVENT with operation DAT_DTO_BIND_MW (DAT 2.0 header)",
            "rmr_bind", "dto_bind_mw");
    /** Bind in DISCONNECTED. */
    public static final ParamSpec PROVIDER_BIND_DISCONNECTED = ParamSpec.choice("provider.bind_when_disconnected",
            "reject", "dat_rmr_bind on a DISCONNECTED endpoint: reject = DAT_INVALID_STATE (OFA dapl); flush = accepted"
                    + " and flushed at once (the DAT specification)", "reject", "flush");
    /** SRQ low-watermark event. */
    public static final ParamSpec PROVIDER_SRQ_LW_EVENT = ParamSpec.choice("provider.srq_low_watermark_event",
            "provider_internal_error", "The SRQ low-watermark event armed by dat_srq_set_lw, which DAT 2.0 gives no"
                    + " event number of its own: provider_internal_error = posted on the IA's async EVD as"
                    + " DAT_ASYNC_ERROR_PROVIDER_INTERNAL_ERROR (0x08005), reason DAT_SRQ_LOW_WATERMARK_EVENT;"
                    + " not_supported = dat_srq_set_lw returns DAT_MODEL_NOT_SUPPORTED (OFA dapl)",
            "provider_internal_error", "not_supported");
    /** Whether the local read privilege is checked. */
    public static final ParamSpec PROVIDER_LOCAL_READ = ParamSpec.choice("provider.local_read_privilege", "check",
            "A local_iov read by the HCA (a Send's or RDMA Write's source): check = its LMR needs"
                    + " DAT_MEM_PRIV_LOCAL_READ_FLAG, else DAT_PRIVILEGES_VIOLATION (the DAT specification); ignore ="
                    + " not checked, as OFA dapl (InfiniBand has no local read permission; dtest relies on it)",
            "check", "ignore");
    /** Event of a CM timeout. */
    public static final ParamSpec PROVIDER_CM_TIMEOUT_EVENT = ParamSpec.choice("provider.cm_timeout_event",
            "timed_out", "The connection event when the connection manager gives up after cm.max_retries:"
                    + " timed_out = DAT_CONNECTION_EVENT_TIMED_OUT (0x04007) on the active side and"
                    + " DAT_CONNECTION_EVENT_ACCEPT_COMPLETION_ERROR (0x04004) on a passive side whose REP went"
                    + " unanswered (the DAT specification); unreachable = DAT_CONNECTION_EVENT_UNREACHABLE (0x04008)"
                    + " on both (OFA dapl's openib_cma provider)", "timed_out", "unreachable");
    /** CPU cost of a post. */
    public static final ParamSpec CPU_POST_OVERHEAD = ParamSpec.time("cpu.post_overhead", "60ns",
            "CPU time of a dat_ep_post_* call up to its doorbell write: building the WQE (the latency a post adds)");
    /** CPU occupancy of a doorbell. */
    public static final ParamSpec CPU_DOORBELL_OCCUPANCY = ParamSpec.time("cpu.doorbell_occupancy", "0ns",
            "CPU time after the doorbell write of a request post (Send, RDMA Write or Read, atomic, RMR bind): the"
                    + " MMIO store through the write-combining buffer and the fence that waits for it to drain"
                    + " towards PCIe. The doorbell is on its way meanwhile, so it delays the next call, not the"
                    + " operation: it bounds the message rate, not the latency. Receives ring no MMIO doorbell");
    /** CPU cost of other calls. */
    public static final ParamSpec CPU_CALL_OVERHEAD = ParamSpec.time("cpu.call_overhead", "100ns",
            "CPU time of any other DAT call that does not block");
    /** CPU cost of reaping an event. */
    public static final ParamSpec CPU_POLL_OVERHEAD = ParamSpec.time("cpu.poll_overhead", "40ns",
            "CPU time to take one event off an EVD (dat_evd_wait or dat_evd_dequeue)");
    /** CPU cost per byte of memory access. */
    public static final ParamSpec CPU_MEMORY_BANDWIDTH = ParamSpec.rate("cpu.memory_bandwidth", "80Gbps",
            "Rate at which a consumer's mem_read and mem_write touch memory");
    /** Connection manager software time. */
    public static final ParamSpec CM_PROCESSING = ParamSpec.time("cm.processing", "2us",
            "Software time of the connection manager to handle one CM message");
    /** CM datagram size. */
    public static final ParamSpec CM_MAD_BYTES = ParamSpec.bytes("cm.mad_bytes", "256B", 64, 4096,
            "Size of a connection-management datagram");
    /** CM response timeout. */
    public static final ParamSpec CM_RESPONSE_TIMEOUT = ParamSpec.time("cm.response_timeout", "4.294967296s",
            "Time the connection manager waits for the answer to a REQ (REP or REJ), a REP (RTU) or a DREQ (DREP)"
                    + " before it sends the message again; it must cover the passive consumer's time to accept"
                    + " (no MRA is modelled); the default, 4.096 us x 2^20, is the kernel rdma_cm's"
                    + " (CMA_CM_RESPONSE_TIMEOUT 20), through which dapl's ofa-v2-ib0 provider connects; at most"
                    + " 4.096 us x 2^31, the largest the CM's 5-bit field can say");
    /** CM retries. */
    public static final ParamSpec CM_MAX_RETRIES = ParamSpec.integer("cm.max_retries", 15, 0, 15,
            "Times a REQ, REP or DREQ is sent again after cm.response_timeout without an answer before the"
                    + " connection manager gives up: a REQ ends in DAT_CONNECTION_EVENT_TIMED_OUT on the active"
                    + " side, a REP in DAT_CONNECTION_EVENT_ACCEPT_COMPLETION_ERROR on the passive side (see"
                    + " provider.cm_timeout_event), a DREQ disconnects locally all the same; rdma_cm's"
                    + " CMA_MAX_CM_RETRIES (the CM's 4-bit field)");
    /** RNR timer. */
    public static final ParamSpec RNR_TIMER = ParamSpec.time("transport.rnr_timer", "10us",
            "Delay before a requester retries a Send the responder refused with an RNR NAK");
    /** RNR retry count. */
    public static final ParamSpec RNR_RETRY = ParamSpec.integer("transport.rnr_retry", 7, 0, 7,
            "RNR retries before the Send fails with DAT_DTO_ERR_RECEIVER_NOT_READY; 7 means retry forever");
    /** ACK coalescing. */
    public static final ParamSpec ACK_INTERVAL = ParamSpec.integer("transport.ack_interval", 0, 0, 1 << 20,
            "Responder: acknowledge every N-th packet of a Send or RDMA Write at once (carrying the cumulative bytes"
                    + " received, the ECN echo, the INT records and the send time of the packet, for congestion"
                    + " control) besides the last packet's ACK; 0: one ACK per message, or one per packet when"
                    + " cc.algorithm is hpcc, dctcp or timely (they need the feedback); HPCC's L2_ACK_INTERVAL (1 in"
                    + " its run.py)");
    /** Local ACK timeout. */
    public static final ParamSpec HCA_ACK_TIMEOUT = ParamSpec.time("hca.ack_timeout", "268.435456ms",
            "Local ACK timeout of the reliable-connected transport: a requester that has heard nothing from the"
                    + " responder (no ACK, NAK or response) for between 1 and 2 times this (a draw from the run's"
                    + " seed: HCAs randomise their timers so that queue pairs do not retry in step) while requests of"
                    + " a queue pair are on their way retransmits them, go-back-N from the first unfinished one; the"
                    + " default, 4.096 us x 2^16 = 268.435456 ms, is dapl's (DAPL_ACK_TIMER 16, the QP's IB timeout"
                    + " exponent)");
    /** Transport retry count. */
    public static final ParamSpec HCA_RETRY_COUNT = ParamSpec.integer("hca.retry_count", 7, 0, 7,
            "Retransmissions after local ACK timeouts without progress before the first unfinished request fails"
                    + " with DAT_DTO_ERR_TRANSPORT (IBV_WC_RETRY_EXC_ERR), the later ones are flushed and the"
                    + " connection breaks; dapl's default (DAPL_ACK_RETRY); unlike transport.rnr_retry, 7 is not"
                    + " infinite");
    /** Read ordering. */
    public static final ParamSpec READ_ORDERING = ParamSpec.choice("transport.read_ordering", "relaxed",
            "relaxed: an operation posted after an RDMA Read may execute at the responder before the Read has fetched"
                    + " its data (rule 19) unless it carries the barrier fence; strict: every operation waits for the"
                    + " earlier RDMA Reads of its endpoint, as if fenced", "relaxed", "strict");
    /** Read jitter. */
    public static final ParamSpec READ_JITTER = ParamSpec.time("transport.read_jitter", "0ns",
            "Largest extra delay, drawn uniformly from the run's seed, before a responder's DMA reads the data of an"
                    + " RDMA Read; makes the rule-19 race depend on the seed, reproducibly");
    /** Incoming reads per EP. */
    public static final ParamSpec IA_MAX_RDMA_READ_IN = ParamSpec.integer("ia.max_rdma_read_per_ep_in", 16, 1, 256,
            "Most RDMA Reads an endpoint can have outstanding as their target (max_rdma_read_per_ep_in); EP"
                    + " attributes above it are clamped to it, as dapl does");
    /** Outgoing reads per EP. */
    public static final ParamSpec IA_MAX_RDMA_READ_OUT = ParamSpec.integer("ia.max_rdma_read_per_ep_out", 16, 1,
            256, "Most RDMA Reads an endpoint can have outstanding as their originator (max_rdma_read_per_ep_out)");
    /** Resident memory bound per host. */
    public static final ParamSpec MEMORY_MAX_RESIDENT = ParamSpec.bytes("memory.max_resident", "1GiB", 4096,
            1L << 40, "Most bytes of simulated memory one host may touch (memory is sparse: untouched bytes cost"
                    + " nothing)");
    /** Host memory coherence. */
    public static final ParamSpec MEMORY_COHERENCE = ParamSpec.choice("memory.coherence", "coherent",
            "How the CPU and the HCA see each other's writes: coherent; cpu_noncoherent (the CPU cache is not"
                    + " snooped by DMA); io_noncoherent (DMA goes through an I/O cache the CPU does not snoop)."
                    + " Non-coherent hosts need dat_lmr_sync_rdma_read/write (lmr_sync_req is true)",
            "coherent", "cpu_noncoherent", "io_noncoherent");
    /** Largest EVD. */
    public static final ParamSpec IA_MAX_EVD_QLEN = ParamSpec.integer("ia.max_evd_qlen", 65536, 1, 1 << 24,
            "Largest evd_min_qlen dat_evd_create accepts (max_evd_qlen)");
    /** Largest DTO queue. */
    public static final ParamSpec IA_MAX_DTO_PER_EP = ParamSpec.integer("ia.max_dto_per_ep", 16384, 1, 1 << 24,
            "Largest max_request_dtos and max_recv_dtos of an endpoint (max_dto_per_ep)");
    /** Largest message. */
    public static final ParamSpec IA_MAX_MESSAGE_SIZE = ParamSpec.bytes("ia.max_message_size", "1GiB", 1,
            1L << 31, "Largest Send or RDMA transfer (max_message_size, max_rdma_size)");
    /** Largest IOV. */
    public static final ParamSpec IA_MAX_IOV = ParamSpec.integer("ia.max_iov_segments", 16, 1, 1024,
            "Most segments in one local_iov (max_iov_segments_per_dto)");

    /** Congestion control algorithm of the queue pairs (declared with the other cc.* parameters). */
    public static final ParamSpec CC_ALGORITHM = org.datsim.fabric.cc.CcParams.ALGORITHM;

    /**
     * Returns the wire bytes of the largest packet the parameters allow: headers and a full MTU, or a CM datagram.
     *
     * @param p the parameters
     * @return the bytes
     */
    public static long largestPacket(org.datsim.core.param.Params p) {
        long largest = p.get(LINK_HEADER_BYTES) + p.get(HCA_MTU)
                + Math.max(p.get(LINK_RETH_BYTES), p.get(LINK_AETH_BYTES))
                + org.datsim.fabric.cc.CongestionControl.headerBytes(p);
        return Math.max(largest, p.get(LINK_HEADER_BYTES) + p.get(CM_MAD_BYTES));
    }

    /** The longest CM response timeout the CM's 5-bit field can say: 4.096 us x 2^31, in picoseconds. */
    static final long CM_RESPONSE_TIMEOUT_MAX_PS = 4_096_000L << 31;

    /** Every fabric parameter in catalogue order. */
    public static final List<ParamSpec> ALL = join(List.of(LINK_BANDWIDTH, LINK_LATENCY, LINK_TIME_RESOLUTION,
            LINK_HEADER_BYTES,
            LINK_RETH_BYTES, LINK_AETH_BYTES, LINK_ACK_PADDING_BYTES, LINK_PFC_FRAME_BYTES, SWITCH_LATENCY, HCA_PHY_LATENCY, SWITCH_ECMP,
            SWITCH_MODE, SWITCH_BUFFER,
            LINK_FLOW_CONTROL, PFC_XOFF, PFC_XON, SWITCH_BUFFER_MODE, SWITCH_SHARED_BUFFER, PFC_ALPHA_SHIFT, PFC_RESERVE,
            PFC_RESUME_OFFSET, PFC_HEADROOM, LINK_CONTROL_PRIORITY, HCA_CONTROL_FIRST, ECN_ENABLED, ECN_KMIN, ECN_KMAX, ECN_PMAX_PERCENT, CC_INT,
            TRACE_PORT_SAMPLE_INTERVAL, TRACE_PORT_EVENTS, TRACE_CACHE_MISSES, PCIE_LATENCY, PCIE_DMA_READ_DELAY, PCIE_BANDWIDTH,
            PCIE_MAX_READ_REQUEST, PCIE_MAX_PAYLOAD, HCA_MTU, HCA_WQE_PROCESS,
            HCA_WQE_INTERVAL, HCA_WQE_BYTES, HCA_RX_PROCESS, HCA_TX_BUFFER, HCA_ARBITRATION, HCA_ARBITER_AT, HCA_ARBITER_ORDER, HCA_ARBITER_WAKE, HCA_CONTROL_PAUSED,
            HCA_MAX_INLINE, HCA_QPC_ENTRIES, HCA_QPC_POLICY,
            HCA_QPC_MISS_PENALTY, HCA_MTT_ENTRIES, HCA_MTT_POLICY, HCA_MTT_MISS_PENALTY, HCA_MTT_FETCH_ENTRIES,
            HCA_MTT_PREFETCH_BLOCKS, HCA_MTT_PAGE, HCA_BIND_TIME,
            PROVIDER_BIND_EVENT, PROVIDER_BIND_DISCONNECTED, PROVIDER_SRQ_LW_EVENT, PROVIDER_CM_TIMEOUT_EVENT,
            PROVIDER_LOCAL_READ,
            CPU_POST_OVERHEAD, CPU_DOORBELL_OCCUPANCY, CPU_CALL_OVERHEAD, CPU_POLL_OVERHEAD, CPU_MEMORY_BANDWIDTH,
            CM_PROCESSING, CM_MAD_BYTES, CM_RESPONSE_TIMEOUT, CM_MAX_RETRIES, RNR_TIMER, RNR_RETRY, ACK_INTERVAL,
            HCA_ACK_TIMEOUT,
            HCA_RETRY_COUNT, READ_ORDERING, READ_JITTER, IA_MAX_RDMA_READ_IN,
            IA_MAX_RDMA_READ_OUT, MEMORY_MAX_RESIDENT, MEMORY_COHERENCE, IA_MAX_EVD_QLEN,
            IA_MAX_DTO_PER_EP, IA_MAX_MESSAGE_SIZE, IA_MAX_IOV), CcParams.ALL);

    private static List<ParamSpec> join(List<ParamSpec> a, List<ParamSpec> b) {
        List<ParamSpec> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    /**
     * Checks the parameters that constrain each other (flow control thresholds, buffer against the largest
     * packet).
     *
     * @param p the parameters
     * @return one message per problem, each naming the parameters; empty if they are consistent
     */
    public static List<String> crossCheck(org.datsim.core.param.Params p) {
        List<String> out = new java.util.ArrayList<>();
        long largest = largestPacket(p);
        if (!"none".equals(p.choice(LINK_FLOW_CONTROL)) && p.get(SWITCH_BUFFER) < largest) {
            out.add("switch.buffer (" + p.get(SWITCH_BUFFER) + " B) must hold the largest packet (" + largest
                    + " B: headers + hca.mtu), or flow control would never let it through");
        }
        if (p.get(HCA_ACK_TIMEOUT) <= 0) {
            out.add("hca.ack_timeout must be more than 0");
        }
        if (p.get(CM_RESPONSE_TIMEOUT) <= 0 || p.get(CM_RESPONSE_TIMEOUT) > CM_RESPONSE_TIMEOUT_MAX_PS) {
            out.add("cm.response_timeout (" + org.datsim.core.time.SimTime.format(p.get(CM_RESPONSE_TIMEOUT))
                    + ") must be more than 0 and at most 8796.093022208s (4.096 us x 2^31)");
        }
        boolean shared = "shared".equals(p.choice(SWITCH_BUFFER_MODE));
        if (shared && !"pfc".equals(p.choice(LINK_FLOW_CONTROL))) {
            out.add("switch.buffer_mode shared needs link.flow_control pfc (it is "
                    + p.choice(LINK_FLOW_CONTROL) + ")");
        }
        if (shared && p.get(SWITCH_SHARED_BUFFER) < 2 * largest) {
            out.add("switch.shared_buffer (" + p.get(SWITCH_SHARED_BUFFER) + " B) must hold at least two largest"
                    + " packets (" + 2 * largest + " B)");
        }
        if (shared && p.get(PFC_HEADROOM) > 0 && p.get(PFC_HEADROOM) < largest) {
            out.add("pfc.headroom (" + p.get(PFC_HEADROOM) + " B) must hold at least the largest packet (" + largest
                    + " B), or 0 to derive it from each link");
        }
        if (p.get(ECN_ENABLED) != 0 && p.get(ECN_KMIN) > p.get(ECN_KMAX)) {
            out.add("ecn.kmin (" + p.get(ECN_KMIN) + " B) must not be above ecn.kmax (" + p.get(ECN_KMAX)
                    + " B; equal is DCTCP's step marking at K)");
        }
        if ("pfc".equals(p.choice(LINK_FLOW_CONTROL)) && !shared) {
            if (p.get(PFC_XON) >= p.get(PFC_XOFF)) {
                out.add("pfc.xon (" + p.get(PFC_XON) + " B) must be below pfc.xoff (" + p.get(PFC_XOFF) + " B)");
            }
            if (p.get(PFC_XOFF) > p.get(SWITCH_BUFFER) - largest) {
                out.add("pfc.xoff (" + p.get(PFC_XOFF) + " B) must leave at least one largest packet (" + largest
                        + " B) of headroom below switch.buffer (" + p.get(SWITCH_BUFFER) + " B)");
            }
        }
        out.addAll(CcParams.crossCheck(p, LINK_BANDWIDTH, LINK_FLOW_CONTROL));
        String cc = "ib_credits".equals(p.choice(LINK_FLOW_CONTROL)) ? "none" : p.choice(CC_ALGORITHM);
        if (("dcqcn".equals(cc) || "dctcp".equals(cc)) && p.get(ECN_ENABLED) == 0) {
            out.add("cc.algorithm " + cc + " reacts to ECN marks: set ecn.enabled true (switches mark nothing"
                    + " without it, and the algorithm would never slow down)");
        }
        if ("hpcc".equals(cc) && p.get(CC_INT) == 0) {
            out.add("cc.algorithm hpcc needs in-band telemetry: set cc.int true (without it no ACK carries the"
                    + " switches' records and the algorithm would never slow down)");
        }
        return out;
    }
}

package org.datsim.fabric;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.param.Params;

/**
 * Named sets of fabric parameters describing a class of hardware. A scenario selects one with
 * {@code "fabric": {"preset": "ib-edr"}}; the preset's values replace the catalogue defaults of {@link FabricParams},
 * and the scenario's {@code params}, {@code host_params} and link attributes override the preset. Parameters a
 * preset does not name keep their catalogue default.
 *
 * <p>{@code ib-edr} is calibrated against perftest on ConnectX-4 EDR back to back (see docs/calibration.md).
 * {@code roce-100g} keeps its RoCEv2 headers and rates and has its link latency calibrated against a published
 * ConnectX-5 RoCE {@code ib_send_lat}; its Write bandwidth at 2 and 4 KiB MTU matches published figures too.
 * {@code ib-hdr} and {@code ib-ndr} scale {@code ib-edr} by the rates of their generation: no published perftest
 * figures were found to calibrate them against.
 */
public final class FabricPresets {

    /**
     * One preset: its name, a one-line description, the parameter values it sets, as user text, and for each value
     * the preset's own note: what the value stands for in this hardware and where it comes from (the catalogue's
     * description of a parameter may speak of its default, InfiniBand's, which a RoCE preset's value is not).
     */
    public static final class Preset {
        private final String name;
        private final String description;
        private final Map<String, String> values;
        private final Map<String, String> notes;

        Preset(String name, String description, Values values) {
            this.name = name;
            this.description = description;
            this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values.values));
            this.notes = Collections.unmodifiableMap(new LinkedHashMap<>(values.notes));
        }

        /**
         * Returns the preset's note on a value it sets: what it stands for and its source.
         *
         * @param param the parameter's name
         * @return the note, or null if the preset does not set the parameter
         */
        public String note(String param) {
            return notes.get(param);
        }

        /** Returns the preset's name, for example {@code "ib-edr"}. */
        public String name() {
            return name;
        }

        /** Returns a one-line description of the hardware it describes. */
        public String description() {
            return description;
        }

        /** Returns the parameters it sets, in the order it lists them, as user text. */
        public Map<String, String> values() {
            return values;
        }

        /**
         * Returns the catalogue defaults with this preset applied.
         *
         * @return the parameters
         */
        public Params params() {
            List<String> problems = new ArrayList<>();
            Params p = Params.defaults(FabricParams.ALL).with(values, problems);
            if (!problems.isEmpty()) {
                throw new IllegalStateException("preset " + name + " is inconsistent: " + problems);
            }
            return p;
        }
    }

    /** A preset's values being built, each with its note. */
    static final class Values {
        final Map<String, String> values = new LinkedHashMap<>();
        final Map<String, String> notes = new LinkedHashMap<>();

        Values() {
        }

        /** A copy of another preset's values; their notes say whose they are. */
        Values(String baseName, Values base) {
            values.putAll(base.values);
            base.notes.forEach((k, v) -> notes.put(k, v.startsWith("as ") ? v : "as " + baseName + ": " + v));
        }

        void put(String param, String value, String note) {
            values.put(param, value);
            notes.put(param, note);
        }
    }

    private static final Map<String, Preset> PRESETS = new LinkedHashMap<>();

    static {
        // ConnectX-4/5 EDR on PCIe Gen3 x16, back to back; tuned to perftest (docs/calibration.md).
        Values edr = new Values();
        edr.put("link.bandwidth", "100Gbps", "4x 25.78125 Gbaud, 64b/66b");
        // Back to back, 90 ns from port to port (calibrated with ib_send_lat 32 B): a 2 m copper cable at about 5 ns/m,
        // and the SerDes and PHY of each HCA's port. A switch hop adds its port-to-port latency, which includes its own
        // PHYs, and one more cable: Switch-IB 2 is specified at 90 ns port to port, cut through.
        edr.put("link.latency", "10ns", "the cable alone");
        edr.put("hca.phy_latency", "40ns", "per HCA port: (90 - 10) / 2");
        edr.put("link.header_bytes", "26B", "LRH 8 + BTH 12 + ICRC 4 + VCRC 2");
        edr.put("link.reth_bytes", "16B", "InfiniBand RETH: virtual address 8 + R_Key 4 + DMA length 4");
        edr.put("link.aeth_bytes", "4B", "InfiniBand AETH: syndrome 1 + MSN 3");
        edr.put("switch.latency", "90ns", "Switch-IB 2 (SB7800) data sheet, port to port");
        edr.put("switch.mode", "cut_through", "as Switch-IB 2 forwards (its 90 ns is first bit in to out)");
        edr.put("link.flow_control", "ib_credits", "InfiniBand's credit-based lossless links (the default)");
        edr.put("pcie.latency", "125ns",
                "one-way host-HCA latency on PCIe Gen3: a doorbell or a posted DMA write takes it once, a DMA read "
                + "twice (docs/calibration.md)");
        edr.put("pcie.bandwidth", "96.6Gbps", "Gen3 x16 after 128b/130b, TLP headers and DLLPs");
        // The host's part of a DMA read (root complex, cache or memory), besides its 2 x 125 ns: calibrated, between the
        // ib_send_lat 1 KiB and 4 KiB targets (docs/calibration.md).
        edr.put("pcie.dma_read_delay", "75ns",
                "the host part of a DMA read besides its 2 x 125 ns: calibrated between the ib_send_lat 1 KiB and 4 "
                + "KiB targets (docs/calibration.md)");
        edr.put("pcie.max_read_request", "4KiB", "the largest MRRS; payloads are read in requests of 4 KiB");
        edr.put("pcie.max_payload", "256B", "the MPS of ConnectX-4/5 on Gen3 hosts");
        edr.put("hca.mtu", "4KiB", "the path MTU perftest uses on EDR");
        edr.put("hca.wqe_process", "150ns",
                "ConnectX-4/5 send engine work per WQE: QP context, scheduling, building headers "
                + "(docs/calibration.md)");
        // The send engine's occupancy per work request: about 7 million messages per second, the top of the published
        // single-QP perftest range (2.5-7.3 Mpps; 6.9 Mpps ib_write_bw -s 2, tx depth 128; docs/calibration.md).
        edr.put("hca.wqe_interval", "140ns",
                "about 7 million messages per second: the top of the published single-QP perftest range (2.5-7.3 "
                + "Mpps; 6.9 Mpps ib_write_bw -s 2, tx depth 128; docs/calibration.md)");
        edr.put("hca.wqe_bytes", "64B", "one 64-byte WQE basic block, as ConnectX fetches a small send WQE");
        edr.put("hca.rx_process", "150ns",
                "ConnectX-4/5 receive pipeline work per packet before its data is written (docs/calibration.md)");
        edr.put("hca.max_inline", "220B", "perftest's default inline size for latency tests");
        edr.put("hca.qpc_entries", "256",
                "on-chip QP contexts of ConnectX-4/5: an estimate, not published (docs/calibration.md)");
        edr.put("hca.qpc_miss_penalty", "250ns", "2 x pcie.latency, one PCIe round trip");
        edr.put("hca.mtt_entries", "4096",
                "on-chip translation entries of ConnectX-4/5, one per 4 KiB page: an estimate, not published "
                + "(docs/calibration.md)");
        edr.put("hca.mtt_miss_penalty", "250ns", "2 x pcie.latency, one PCIe round trip");
        edr.put("cpu.post_overhead", "60ns",
                "CPU time of a post up to its doorbell write, building the WQE (docs/calibration.md)");
        edr.put("cpu.doorbell_occupancy", "60ns", "MMIO doorbell + write-combining flush; see docs/calibration.md");
        edr.put("cpu.poll_overhead", "40ns", "CPU time of taking one completion (docs/calibration.md)");
        add("ib-edr", "InfiniBand EDR, 100 Gb/s, ConnectX-4/5 class on PCIe Gen3 x16 (calibrated to perftest)", edr);

        Values hdr = new Values("ib-edr", edr);
        hdr.put("link.bandwidth", "200Gbps", "4 lanes of 53.125 Gb/s (26.5625 GBd PAM4), less FEC and coding");
        hdr.put("hca.phy_latency", "55ns", "PAM4 with RS-FEC adds latency: 120 ns back to back");
        hdr.put("pcie.latency", "115ns", "an estimate for PCIe Gen4, a little below Gen3's 125 ns; not measured");
        hdr.put("pcie.bandwidth", "196Gbps", "Gen4 x16");
        hdr.put("hca.wqe_process", "120ns", "an estimate for a faster HCA pipeline (ConnectX-6); not measured");
        hdr.put("hca.wqe_interval", "100ns",
                "10 million messages per second from one send engine, ib-edr's 140 ns scaled; not measured");
        hdr.put("hca.rx_process", "120ns", "an estimate for a faster HCA pipeline (ConnectX-6); not measured");
        hdr.put("hca.qpc_entries", "512", "doubled from ib-edr for a newer chip; not measured");
        hdr.put("hca.qpc_miss_penalty", "230ns", "2 x pcie.latency, one PCIe round trip");
        hdr.put("hca.mtt_entries", "8192", "doubled from ib-edr for a newer chip; not measured");
        hdr.put("hca.mtt_miss_penalty", "230ns", "2 x pcie.latency, one PCIe round trip");
        add("ib-hdr", "InfiniBand HDR, 200 Gb/s, ConnectX-6 class on PCIe Gen4 x16 (scaled from ib-edr, not"
                + " calibrated)", hdr);

        Values ndr = new Values("ib-edr", edr);
        ndr.put("link.bandwidth", "400Gbps", "4 lanes of 106.25 Gb/s (53.125 GBd PAM4), less FEC and coding");
        ndr.put("hca.phy_latency", "60ns", "130 ns back to back");
        ndr.put("pcie.latency", "110ns", "an estimate for PCIe Gen5, a little below Gen3's 125 ns; not measured");
        ndr.put("pcie.bandwidth", "392Gbps", "Gen5 x16");
        ndr.put("hca.wqe_process", "100ns", "an estimate for a faster HCA pipeline (ConnectX-7); not measured");
        ndr.put("hca.wqe_interval", "70ns",
                "14 million messages per second from one send engine, ib-edr's 140 ns scaled; not measured");
        ndr.put("hca.rx_process", "100ns", "an estimate for a faster HCA pipeline (ConnectX-7); not measured");
        ndr.put("hca.qpc_entries", "1024", "doubled per generation from ib-edr; not measured");
        ndr.put("hca.qpc_miss_penalty", "220ns", "2 x pcie.latency, one PCIe round trip");
        ndr.put("hca.mtt_entries", "16384", "doubled per generation from ib-edr; not measured");
        ndr.put("hca.mtt_miss_penalty", "220ns", "2 x pcie.latency, one PCIe round trip");
        add("ib-ndr", "InfiniBand NDR, 400 Gb/s, ConnectX-7 class on PCIe Gen5 x16 (scaled from ib-edr, not"
                + " calibrated)", ndr);

        Values roce = new Values("ib-edr", edr);
        // Back to back 200 ns from port to port: ib-edr's 90 ns plus the RS(528,514) FEC that 100GBASE-CR4 requires
        // (Clause 91): a 5280-bit codeword takes 51 ns to arrive over 4 x 25.78125 Gb/s before it can be decoded, and
        // decoding as long again, 110 ns, shared between the two ports' PHYs. Calibrated: ib_send_lat 8 B, ConnectX-5
        // RoCE back to back, 0.92 us (docs/calibration.md).
        roce.put("hca.phy_latency", "95ns", "200 ns back to back with the 10 ns cable: 40 ns + 55 ns of FEC");
        // Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4, plus preamble 8 and inter-frame gap 12 on the wire
        roce.put("link.header_bytes", "82B",
                "RoCEv2: Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4, plus preamble 8 and inter-frame gap "
                + "12 on the wire");
        // 100 GbE switches of that generation: 250-300 ns port to port, RS-FEC on both ports included (issue 14);
        // the middle of that range, not a measured figure.
        roce.put("switch.latency", "275ns",
                "100 GbE switches of that generation: 250-300 ns port to port, RS-FEC on both ports included (issue "
                + "14); the middle of that range, not a measured figure");
        roce.put("hca.mtu", "1KiB", "the RoCE MTU that fits a standard 1500-byte Ethernet frame");
        roce.put("link.flow_control", "pfc", "lossless RoCE: priority flow control (pfc.xoff/xon defaults)");
        add("roce-100g", "RoCEv2 over 100 Gb/s Ethernet, ConnectX-5 class, 1500-byte frames (small-message latency"
                + " calibrated to perftest, the rest scaled from ib-edr)", roce);

        Values ideal = new Values();
        ideal.put("link.bandwidth", "100Gbps", "a round rate for teaching: each byte takes 80 ps");
        ideal.put("link.latency", "0ns",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("link.header_bytes", "0B",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("link.reth_bytes", "0B",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("link.aeth_bytes", "0B",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("switch.latency", "0ns",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("pcie.latency", "0ns",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("pcie.bandwidth", "1000Tbps", "effectively unlimited (not a real bus): PCIe never bounds the stream");
        ideal.put("hca.wqe_process", "0ns",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("hca.wqe_interval", "0ns",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("hca.rx_process", "0ns",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("hca.bind_time", "0ns",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("hca.qpc_entries", "0", "unlimited: the QP-context cache never misses");
        ideal.put("hca.qpc_miss_penalty", "0ns",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("hca.mtt_entries", "0", "unlimited: the translation cache never misses");
        ideal.put("hca.mtt_miss_penalty", "0ns",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("cpu.post_overhead", "0ns",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("cpu.call_overhead", "0ns",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("cpu.poll_overhead", "0ns",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        ideal.put("cpu.memory_bandwidth", "1000Tbps",
                "effectively unlimited: CPU memory reads and writes take no time");
        ideal.put("cm.processing", "0ns",
                "none: an ideal fabric for teaching, where only the payload serialisation takes time");
        add("ideal", "No overheads: only the 100 Gb/s serialisation of the payload takes time (for teaching)",
                ideal);

        // What HPCC's ns-3 simulator models, for comparison with it only (issue 25): its NIC and switches and nothing
        // of the host; see docs/congestion-control.md, "The hpcc-ns3 preset".
        String noHost = "HPCC's simulator models no host: no PCIe, no WQE or receive processing, no caches";
        Values ns3 = new Values();
        ns3.put("link.bandwidth", "100Gbps", "HPCC's run.py --bw 100 host links (a topology file sets its own rates)");
        ns3.put("link.latency", "1us", "HPCC's fat.txt: every link 1 us (a topology file sets its own delays)");
        ns3.put("hca.phy_latency", "0ns", "HPCC's links have their delay and nothing else");
        ns3.put("link.ack_padding_bytes", "14B", "HPCC's ACK is 46 bytes padded to 60; its INT header fills the"
                + " padding first (88 bytes under hpcc, 60 under timely)");
        ns3.put("cc.hpcc.int_byte_unit", "128B", "HPCC's IntHop holds transmitted bytes in units of 128");
        ns3.put("cc.hpcc.int_qlen_unit", "80B", "HPCC's IntHop holds queue lengths in units of 80 bytes");
        ns3.put("link.time_resolution", "1ns", "ns-3 keeps time in whole nanoseconds and truncates each packet's time"
                + " on the wire and each rate-limited interval (83 ns for 1048 bytes at 100 Gb/s, not 83.84)");
        ns3.put("link.header_bytes", "48B", "HPCC's data packet: its 14-byte L2 (PppHeader), IPv4 20, UDP 8, and its"
                + " SeqTs 6 (sequence 4 + priority 2); no preamble, gap or FCS (an algorithm's extra header is"
                + " cc.header_bytes)");
        ns3.put("link.reth_bytes", "0B", "HPCC's Write carries no RDMA extended header");
        ns3.put("link.aeth_bytes", "12B", "HPCC's ACK: L2 14 + IPv4 20 + its 12-byte ACK header (ports, flags,"
                + " priority, sequence) = 46 B, padded to 60: 48 + 12");
        ns3.put("switch.latency", "0ns", "ns-3's switches forward in no time once a packet has arrived");
        ns3.put("link.pfc_frame_bytes", "43B", "HPCC's switch sends a PFC frame as a 43-byte packet (PauseHeader 9,"
                + " IPv4 20, its 14-byte L2) in the port's highest-priority queue: after the packet on the wire, then"
                + " its own time on the wire, then the link's delay (QbbNetDevice::SendPfc)");
        ns3.put("switch.mode", "store_and_forward", "ns-3's switches receive a whole packet before forwarding it");
        ns3.put("switch.ecmp", "hpcc", "HPCC's switch-node.cc: its hash of IPs and ports, its next-hop order, so that"
                + " every flow takes HPCC's path");
        ns3.put("link.flow_control", "pfc", "HPCC's PFC");
        ns3.put("switch.buffer_mode", "shared", "HPCC's switch MMU: one buffer, dynamic PFC thresholds");
        ns3.put("switch.shared_buffer", "32MiB", "HPCC's run.py BUFFER_SIZE 32");
        ns3.put("hca.mtu", "1000B", "HPCC's PACKET_PAYLOAD_SIZE 1000 (not an InfiniBand MTU: this preset only)");
        ns3.put("hca.arbitration", "packet", "HPCC's NIC: per-packet round-robin among the queue pairs that may send");
        ns3.put("hca.arbiter_at", "link_free", "HPCC's NIC chooses the next packet at the end of the one before"
                + " (QbbNetDevice::TransmitComplete calls DequeueAndTransmit)");
        ns3.put("hca.arbiter_order", "fixed", "HPCC's NIC scans its queue pairs in the order they were added, from"
                + " the one after the last served (RdmaEgressQueue::GetNextQindex)");
        ns3.put("hca.arbiter_wake", "one_pending", "HPCC's NIC keeps one pending look (m_nextSend), moved only by"
                + " HPCC's ChangeRate (QbbNetDevice::UpdateNextAvail)");
        ns3.put("transport.ack_interval", "1", "HPCC's L2_ACK_INTERVAL 1: an ACK per packet");
        ns3.put("cc.dcqcn.cnp_on_ack", "true", "HPCC's receiver flags the ACK of each ECN-marked packet (no CNP packet)");
        ns3.put("hca.tx_buffer", "1B", "HPCC's NIC takes a packet off a queue pair when its link is free: at most one"
                + " packet waits for the wire");
        for (String t : new String[] {"pcie.latency", "pcie.dma_read_delay", "hca.wqe_process", "hca.wqe_interval",
            "hca.rx_process", "hca.bind_time", "hca.qpc_miss_penalty", "hca.mtt_miss_penalty"}) {
            ns3.put(t, "0ns", noHost);
        }
        ns3.put("pcie.bandwidth", "1000Tbps", noHost + " (effectively unlimited: PCIe never bounds a flow)");
        ns3.put("hca.qpc_entries", "0", noHost + " (0 = unlimited: never misses)");
        ns3.put("hca.mtt_entries", "0", noHost + " (0 = unlimited: never misses)");
        add("hpcc-ns3", "What HPCC's ns-3 simulator models, for comparison with it only: its links, switches and NIC"
                + " pacing, none of the host (no PCIe, no WQE or receive processing, no caches), its header sizes"
                + " and 1000-byte payload", ns3);
    }

    private FabricPresets() {
    }

    private static void add(String name, String description, Values values) {
        PRESETS.put(name, new Preset(name, description, values));
    }

    /** Returns the names of every preset, in a fixed order. */
    public static List<String> names() {
        return List.copyOf(PRESETS.keySet());
    }

    /**
     * Returns a preset.
     *
     * @param name its name
     * @return the preset, or null if no preset has that name
     */
    public static Preset get(String name) {
        return PRESETS.get(name);
    }
}

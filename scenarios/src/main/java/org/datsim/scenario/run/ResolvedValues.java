package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.time.SimTime;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.link.Port;

/**
 * The derived parameters as a run used them, for summary.json's {@code resolved} and the run's first lines: one
 * owner for {@code run} and {@code bench hpcc}.
 */
public final class ResolvedValues {

    private ResolvedValues() {
    }

    /**
     * The derived parameters as the run used them (summary.json's {@code resolved}): with congestion control,
     * cc.base_rtt and cc.window (0 in the parameters means the topology's largest round trip and bandwidth-delay
     * product: {@link org.datsim.fabric.Fabric#ccBaseRttPs}, {@code ccWindowBytes}); with ECN, the marking
     * thresholds per port rate (ecn.kmin and ecn.kmax are given at 100 Gb/s and scale with a port's rate, as the
     * switches apply them). Empty without either.
     *
     * @param mapper the mapper that makes the node
     * @param p the run's fabric parameters
     * @param fabric the run's fabric
     * @return the values, an empty object if there are none
     */
    public static ObjectNode of(ObjectMapper mapper, org.datsim.core.param.Params p, Fabric fabric) {
        ObjectNode r = mapper.createObjectNode();
        long rtt = fabric.ccBaseRttPs();
        long window = fabric.ccWindowBytes();
        if (rtt > 0 || window > 0) {
            r.put("cc.base_rtt_ps", rtt);
            r.put("cc.base_rtt", SimTime.format(rtt) + (p.get(org.datsim.fabric.cc.CcParams.BASE_RTT) == 0
                    ? " (0 given: the topology's largest unloaded round trip)" : " (given)"));
            r.put("cc.window_bytes", window);
            r.put("cc.window", org.datsim.core.time.ByteSize.format(window)
                    + (p.get(org.datsim.fabric.cc.CcParams.WINDOW) == 0
                    ? " (0 given: the topology's largest bandwidth-delay product)" : " (given)"));
        }
        String algorithm = "ib_credits".equals(p.choice(org.datsim.fabric.FabricParams.LINK_FLOW_CONTROL)) ? "none"
                : p.choice(org.datsim.fabric.FabricParams.CC_ALGORITHM);
        if (!"none".equals(algorithm)) {
            r.put("cc.header_bytes", org.datsim.fabric.cc.CongestionControl.headerBytes(p));
        }
        org.datsim.fabric.cc.CongestionControl.Algorithm a = org.datsim.fabric.cc.CongestionControl.Algorithm.valueOf(
                algorithm.toUpperCase(java.util.Locale.ROOT));
        long ackGiven = p.get(org.datsim.fabric.FabricParams.ACK_INTERVAL);
        int ack = org.datsim.fabric.cc.CongestionControl.effectiveAckInterval(ackGiven, a);
        if (ack != ackGiven) {
            r.put("transport.ack_interval", ack);
        }
        if ("shared".equals(p.choice(org.datsim.fabric.FabricParams.SWITCH_BUFFER_MODE))
                && !fabric.switches().isEmpty()) {
            // per kind of switch port (rate, delay): the headroom and alpha shift the fabric gave its inputs
            java.util.TreeMap<String, long[]> kinds = new java.util.TreeMap<>();
            for (org.datsim.fabric.sw.Switch sw : fabric.switches()) {
                List<Port> ports = sw.ports();
                for (int i = 0; i < ports.size(); i++) {
                    Port port = ports.get(i);
                    kinds.put(org.datsim.core.time.DataRate.ofBitsPerSecond(port.rate().bitsPerSecond()) + ", "
                            + SimTime.format(port.propagationPs()), new long[] {sw.headroom(i), sw.alphaShift(i)});
                }
            }
            ObjectNode h = r.putObject("pfc_by_switch_port");
            kinds.forEach((k, v) -> h.putObject(k).put("headroom_bytes", v[0]).put("alpha_shift", v[1]));
        }
        if (p.get(org.datsim.fabric.FabricParams.ECN_ENABLED) != 0) {
            java.util.TreeSet<Long> rates = new java.util.TreeSet<>();
            for (Port port : fabric.ports()) {
                rates.add(port.rate().bitsPerSecond());
            }
            ObjectNode e = r.putObject("ecn.thresholds_by_port_rate");
            for (long bps : rates) {
                ObjectNode k = e.putObject(org.datsim.core.time.DataRate.ofBitsPerSecond(bps).toString());
                k.put("kmin_bytes", org.datsim.fabric.sw.Switch.ecnThreshold(
                        p.get(org.datsim.fabric.FabricParams.ECN_KMIN), bps));
                k.put("kmax_bytes", org.datsim.fabric.sw.Switch.ecnThreshold(
                        p.get(org.datsim.fabric.FabricParams.ECN_KMAX), bps));
            }
        }
        return r;
    }

    /**
     * The run's first lines that say the resolved values ({@code "  resolved: ..."}), from {@link #of}.
     *
     * @param r what {@link #of} gave
     * @return the lines, none if it is empty
     */
    public static List<String> lines(ObjectNode r) {
        List<String> out = new ArrayList<>();
        if (r.has("cc.base_rtt")) {
            out.add("  resolved: cc.base_rtt " + r.path("cc.base_rtt").asText() + "; cc.window "
                    + r.path("cc.window").asText());
        }
        List<String> cc = new ArrayList<>();
        if (r.has("cc.header_bytes")) {
            cc.add("cc.header_bytes " + r.path("cc.header_bytes").asInt() + " (per data packet, ACK and NAK)");
        }
        if (r.has("transport.ack_interval")) {
            cc.add("transport.ack_interval " + r.path("transport.ack_interval").asInt()
                    + " (0 given: one ACK per packet under this algorithm)");
        }
        if (!cc.isEmpty()) {
            out.add("  resolved: " + String.join("; ", cc));
        }
        if (r.has("pfc_by_switch_port")) {
            StringBuilder b = new StringBuilder("  resolved: PFC headroom/alpha shift per switch port (rate, delay):");
            r.path("pfc_by_switch_port").fields().forEachRemaining(f -> b.append(' ').append(f.getKey()).append(": ")
                    .append(org.datsim.core.time.ByteSize.format(f.getValue().path("headroom_bytes").asLong()))
                    .append('/').append(f.getValue().path("alpha_shift").asInt()).append(';'));
            b.setLength(b.length() - 1);
            out.add(b.toString());
        }
        if (r.has("ecn.thresholds_by_port_rate")) {
            StringBuilder b = new StringBuilder("  resolved: ECN kmin/kmax per port rate:");
            r.path("ecn.thresholds_by_port_rate").fields().forEachRemaining(f -> b.append(' ').append(f.getKey())
                    .append(' ').append(org.datsim.core.time.ByteSize.format(f.getValue().path("kmin_bytes").asLong()))
                    .append('/').append(org.datsim.core.time.ByteSize.format(f.getValue().path("kmax_bytes").asLong()))
                    .append(';'));
            b.setLength(b.length() - 1);
            out.add(b.toString());
        }
        return out;
    }
}

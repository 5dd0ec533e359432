package org.datsim.scenario.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.topology.Topology;
import org.datsim.fabric.topology.TopologyBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * link.ack_padding_bytes: HPCC's simulator pads its 46-byte ACK to 60 bytes, and its INT header (42 bytes, under hpcc)
 * or send time (8 bytes, under timely) fills the padding before it adds to the ACK: 88 bytes under hpcc, 60 under
 * timely and dcqcn. The hpcc-ns3 preset models it; without padding (roce-100g) the header adds in full. A one-packet
 * Write's receiver sends exactly one ACK, whose bytes its port counts.
 */
class AckPaddingTest {

    @ParameterizedTest(name = "{0} {1}: {2} bytes")
    @CsvSource({"hpcc-ns3, hpcc, 88", "hpcc-ns3, timely, 60", "hpcc-ns3, dcqcn, 60", "roce-100g, hpcc, 102"})
    void anAckCarriesTheCongestionControlsHeaderInItsPaddingFirst(String preset, String cc, long bytes)
            throws Exception {
        List<String> problems = new ArrayList<>();
        Topology t = TopologyBuilder.singleSwitch("h", 2).build(problems);
        assertTrue(problems.isEmpty(), problems.toString());
        Map<String, String> extra = "hpcc-ns3".equals(preset) ? Map.of(FabricParams.HCA_MTU.name(), "1000B")
                : Map.of(FabricParams.LINK_HEADER_BYTES.name(), "48B", FabricParams.LINK_AETH_BYTES.name(), "12B");
        FlowRunner.Result r = FlowRunner.run(t, LoneFlowLineRateTest.params(preset, cc, extra),
                List.of(new Flow(0, 1, 500, 1_000_000L)), false, 1, false);
        assertEquals(0, r.failed());
        long sent = -1;
        for (Port p : r.fabric().ports()) {
            if (p.name().startsWith("h1->")) {
                sent = p.bytesSent();
            }
        }
        assertEquals(bytes, sent, preset + " " + cc);
    }
}

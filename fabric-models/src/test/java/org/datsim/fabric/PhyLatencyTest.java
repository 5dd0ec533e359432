package org.datsim.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.topology.LinkSpec;
import org.junit.jupiter.api.Test;

/**
 * A hop's latency (issue 14): a link's delay is its cable ({@code link.latency} or the link's own latency) plus
 * {@code hca.phy_latency} for each HCA at an end; a switch's PHYs are in its {@code switch.latency}, so a link into a
 * switch takes one HCA PHY and a link between switches none. With {@code hca.phy_latency} 0 (the catalogue default)
 * a link's delay is its {@code link.latency}, as before the parameter existed.
 */
class PhyLatencyTest {

    private static long delay(TestFabric tf, String name) {
        for (Port p : tf.fabric.ports()) {
            if (p.name().equals(name)) {
                return p.propagationPs();
            }
        }
        throw new AssertionError("no port " + name);
    }

    @Test
    void eachHcaEndAddsItsPhyAndSwitchesAddNone() {
        TestFabric b2b = TestFabric.backToBack("link.latency", "10ns", "hca.phy_latency", "40ns");
        assertEquals(90_000L, delay(b2b, "A->B"), "back to back: the cable and both HCAs' PHYs");
        assertEquals(90_000L, delay(b2b, "B->A"));
        TestFabric tf = new TestFabric(List.of("A", "B", "C"), List.of("S1", "S2"),
                List.of(TestFabric.link("A", "S1"), TestFabric.link("S1", "S2"), TestFabric.link("S2", "B"),
                        new LinkSpec("C", "S2", 0, 1_000_000L)),
                "link.latency", "10ns", "hca.phy_latency", "40ns");
        assertEquals(50_000L, delay(tf, "A->S1"), "into a switch: the cable and one HCA PHY");
        assertEquals(50_000L, delay(tf, "S1->A"));
        assertEquals(10_000L, delay(tf, "S1->S2"), "between switches: the cable alone");
        assertEquals(50_000L, delay(tf, "S2->B"));
        assertEquals(1_040_000L, delay(tf, "C->S2"), "a link's own latency is its cable too");
    }

    @Test
    void withoutPhyLatencyALinkTakesItsLatencyAsBefore() {
        TestFabric tf = TestFabric.star("link.latency", "75ns");
        for (Port p : tf.fabric.ports()) {
            assertEquals(75_000L, p.propagationPs(), p.name());
        }
    }

    @Test
    void theEdrPresetKeepsItsBackToBackDelayAndASwitchHopCostsItsPortToPortLatencyAndACable() {
        org.datsim.core.param.Params edr = FabricPresets.get("ib-edr").params();
        long cable = edr.get(FabricParams.LINK_LATENCY);
        long phy = edr.get(FabricParams.HCA_PHY_LATENCY);
        assertEquals(90_000L, cable + 2 * phy, "the calibrated 90 ns port to port, back to back");
        // One switch: two cables, one PHY per host, the switch's port-to-port latency (cut through).
        long viaSwitch = 2 * (cable + phy) + edr.get(FabricParams.SWITCH_LATENCY);
        assertEquals(100_000L, viaSwitch - (cable + 2 * phy), "Switch-IB 2's 90 ns and one more 2 m cable");
        assertEquals("cut_through", edr.choice(FabricParams.SWITCH_MODE));
    }
}

package org.datsim.fabric.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.datsim.core.param.Params;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.FabricPresets;
import org.junit.jupiter.api.Test;

/** The cc.* parameters: catalogue, HPCC run.py defaults, validation, and the factory. */
class CcParamsTest {

    private static Params with(Map<String, String> values, List<String> problems) {
        return FabricPresets.get("roce-100g").params().with(values, problems);
    }

    @Test
    void everyCcParameterIsInTheFabricCatalogueOnce() {
        for (var s : CcParams.ALL) {
            assertEquals(1, FabricParams.ALL.stream().filter(x -> x.name().equals(s.name())).count(), s.name());
        }
    }

    @Test
    void roce100gDefaultsAreHpccRunPyFor100G() {
        Params p = FabricPresets.get("roce-100g").params();
        assertEquals("none", p.choice(CcParams.ALGORITHM), "congestion control stays off unless asked for");
        // config-dcqcn.txt: ALPHA_RESUME_INTERVAL 1, RATE_DECREASE_INTERVAL 4, RP_TIMER 300, EWMA_GAIN 1/256,
        // FAST_RECOVERY_TIMES 1, RATE_AI 20Mb/s, RATE_HAI 200Mb/s, MIN_RATE 1000Mb/s, CLAMP_TARGET_RATE 0
        assertEquals(1_000_000L, p.get(CcParams.DCQCN_ALPHA_INTERVAL));
        assertEquals(4_000_000L, p.get(CcParams.DCQCN_RATE_DECREASE_INTERVAL));
        assertEquals(300_000_000L, p.get(CcParams.DCQCN_RP_TIMER));
        assertEquals(256, p.get(CcParams.DCQCN_G_DENOMINATOR));
        assertEquals(1, p.get(CcParams.DCQCN_FAST_RECOVERY_TIMES));
        assertEquals(20_000_000L, p.get(CcParams.DCQCN_RATE_AI));
        assertEquals(200_000_000L, p.get(CcParams.DCQCN_RATE_HAI));
        assertEquals(1_000_000_000L, p.get(CcParams.MIN_RATE));
        assertEquals(false, p.bool(CcParams.DCQCN_CLAMP_TARGET_RATE));
        // run.py --cc hp --bw 100: U_TARGET 0.95, RATE_AI 10*100/25 = 40 Mb/s, MI_THRESH 0, FAST_REACT 1
        assertEquals(95, p.get(CcParams.HPCC_ETA_PERCENT));
        assertEquals(40_000_000L, p.get(CcParams.HPCC_RATE_AI));
        assertEquals(0, p.get(CcParams.HPCC_MAX_STAGE));
        assertEquals(true, p.bool(CcParams.HPCC_FAST_REACT));
        // rdma-hw.cc TimelyAlpha 0.875, TimelyBeta 0.8, TimelyTLow 50000 ns, TimelyTHigh 500000 ns, TimelyMinRtt
        // 20000 ns; run.py --cc timely --bw 100: RATE_AI 10*100/10 = 100 Mb/s, RATE_HAI 50*100/10 = 500 Mb/s
        assertEquals(875, p.get(CcParams.TIMELY_ALPHA_PERMILLE));
        assertEquals(800, p.get(CcParams.TIMELY_BETA_PERMILLE));
        assertEquals(50_000_000L, p.get(CcParams.TIMELY_T_LOW));
        assertEquals(500_000_000L, p.get(CcParams.TIMELY_T_HIGH));
        assertEquals(20_000_000L, p.get(CcParams.TIMELY_MIN_RTT));
        assertEquals(100_000_000L, p.get(CcParams.TIMELY_RATE_AI));
        assertEquals(500_000_000L, p.get(CcParams.TIMELY_RATE_HAI));
    }

    @Test
    void timelyNeedsNeitherEcnNorIntAndChecksItsThresholds() {
        List<String> problems = new ArrayList<>();
        assertEquals(List.of(), FabricParams.crossCheck(with(Map.of("cc.algorithm", "timely"), problems)));
        List<String> out = FabricParams.crossCheck(with(Map.of("cc.algorithm", "timely", "cc.timely.t_low", "500us",
                "cc.timely.min_rtt", "0us"), problems));
        assertEquals(List.of("cc.timely.t_low (500us) must be below cc.timely.t_high (500us)",
                "cc.timely.min_rtt must be more than 0 with cc.algorithm timely (the gradient is divided by it)"), out);
        assertEquals(List.of(), FabricParams.crossCheck(with(Map.of("cc.timely.t_low", "1ms"), problems)),
                "not checked with another algorithm");
        with(Map.of("cc.timely.alpha_permille", "0", "cc.timely.beta_permille", "1001"), problems);
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.stream().anyMatch(m -> m.startsWith("cc.timely.alpha_permille:")), problems.toString());
        assertTrue(problems.stream().anyMatch(m -> m.startsWith("cc.timely.beta_permille:")), problems.toString());
    }

    @Test
    void badValuesGiveOneMessageEachNamingTheParameter() {
        List<String> problems = new ArrayList<>();
        with(Map.of("cc.algorithm", "swift", "cc.hpcc.eta_percent", "150", "cc.dcqcn.rate_ai", "fast"), problems);
        assertEquals(3, problems.size(), problems.toString());
        assertTrue(problems.stream().anyMatch(m -> m.startsWith("cc.algorithm:")), problems.toString());
        assertTrue(problems.stream().anyMatch(m -> m.startsWith("cc.hpcc.eta_percent:")), problems.toString());
        assertTrue(problems.stream().anyMatch(m -> m.startsWith("cc.dcqcn.rate_ai:")), problems.toString());
    }

    @Test
    void crossCheckRejectsAMinRateAboveTheLinkAndZeroDcqcnTimers() {
        List<String> problems = new ArrayList<>();
        Params p = with(Map.of("cc.algorithm", "dcqcn", "cc.min_rate", "200Gbps", "cc.dcqcn.rp_timer", "0us",
                "ecn.enabled", "true"), problems);
        assertEquals(List.of(), problems);
        List<String> out = FabricParams.crossCheck(p);
        assertEquals(2, out.size(), out.toString());
        assertTrue(out.get(0).startsWith("cc.min_rate"), out.toString());
        assertTrue(out.get(1).startsWith("cc.dcqcn.rp_timer"), out.toString());
        assertEquals(List.of(), FabricParams.crossCheck(with(Map.of("cc.min_rate", "200Gbps"), problems)),
                "not checked while congestion control is off");
        assertEquals(List.of("cc.algorithm dcqcn reacts to ECN marks: set ecn.enabled true (switches mark nothing"
                + " without it, and the algorithm would never slow down)"),
                FabricParams.crossCheck(with(Map.of("cc.algorithm", "dcqcn"), problems)));
        assertEquals(List.of("cc.algorithm hpcc needs in-band telemetry: set cc.int true (without it no ACK carries"
                + " the switches' records and the algorithm would never slow down)"),
                FabricParams.crossCheck(with(Map.of("cc.algorithm", "hpcc"), problems)));
    }

    @Test
    void congestionControlOnInfiniBandLinksIsRefusedWithAClearMessage() {
        List<String> problems = new ArrayList<>();
        Params p = FabricPresets.get("ib-edr").params().with(Map.of("cc.algorithm", "hpcc"), problems);
        List<String> out = FabricParams.crossCheck(p);
        assertEquals(1, out.size(), out.toString());
        assertTrue(out.get(0).startsWith("cc.algorithm hpcc is not available with link.flow_control ib_credits"),
                out.get(0));
        assertEquals(List.of(), FabricParams.crossCheck(FabricPresets.get("ib-edr").params()));
    }

    @Test
    void theFactoryMakesTheChosenAlgorithm() {
        List<String> problems = new ArrayList<>();
        long line = 100_000_000_000L;
        assertInstanceOf(NoCc.class, CongestionControl.fromParams(with(Map.of(), problems))
                .newController(line, 10_000_000, 125_000, CcTimers.NONE));
        ManualTimers t = new ManualTimers();
        CongestionControl d = CongestionControl.fromParams(with(Map.of("cc.algorithm", "dcqcn"), problems));
        assertTrue(d.usesCnp() && d.usesEcn() && !d.usesInt());
        assertInstanceOf(Dcqcn.class, d.newController(line, 10_000_000, 125_000, t));
        CongestionControl h = CongestionControl.fromParams(with(Map.of("cc.algorithm", "hpcc", "cc.window", "60KB"),
                problems));
        assertTrue(h.usesInt() && !h.usesEcn());
        RateController hc = h.newController(line, 10_000_000, 125_000, CcTimers.NONE);
        assertInstanceOf(Hpcc.class, hc);
        assertEquals(60_000, hc.windowBytes(), "cc.window overrides the topology's BDP");
        CongestionControl c = CongestionControl.fromParams(with(Map.of("cc.algorithm", "dctcp"), problems));
        assertEquals(125_000, c.newController(line, 10_000_000, 125_000, CcTimers.NONE).windowBytes());
        CongestionControl tm = CongestionControl.fromParams(with(Map.of("cc.algorithm", "timely"), problems));
        assertTrue(!tm.usesInt() && !tm.usesEcn() && !tm.usesCnp());
        RateController tc = tm.newController(line, 10_000_000, 125_000, CcTimers.NONE);
        assertInstanceOf(Timely.class, tc);
        assertEquals(RateController.NO_WINDOW, tc.windowBytes());
        assertEquals(List.of(), problems);
    }

    @Test
    void headerBytesAreHpccsIntHeaderForHpccAndNothingElseUnlessSet() {
        List<String> problems = new ArrayList<>();
        assertEquals(42, CongestionControl.headerBytes(with(Map.of("cc.algorithm", "hpcc"), problems)));
        assertEquals(0, CongestionControl.headerBytes(with(Map.of("cc.algorithm", "dcqcn"), problems)));
        assertEquals(0, CongestionControl.headerBytes(with(Map.of("cc.algorithm", "dctcp"), problems)));
        assertEquals(0, CongestionControl.headerBytes(with(Map.of("cc.header_bytes", "30"), problems)),
                "nothing without congestion control");
        assertEquals(30, CongestionControl.headerBytes(
                with(Map.of("cc.algorithm", "dcqcn", "cc.header_bytes", "30"), problems)));
        assertEquals(0, CongestionControl.headerBytes(
                with(Map.of("cc.algorithm", "hpcc", "cc.header_bytes", "0"), problems)));
        assertTrue(problems.isEmpty(), problems.toString());
        with(Map.of("cc.header_bytes", "-2"), problems);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("cc.header_bytes"), problems.get(0));
    }
}

package org.datsim.scenario.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.datsim.core.trace.TraceKind;
import org.datsim.scenario.ScenarioJson;
import org.datsim.viz.RunViews;
import org.datsim.viz.Timeline;
import org.datsim.viz.explain.Explainer;
import org.datsim.viz.explain.Explanation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * viz on real runs, not fixed files: a loaded fabric's explanation tells its port queues and samples, PFC pauses,
 * ECN marks and flows (and never calls its queues untraced); its timeline draws the ports; its Perfetto trace has
 * the ports' counters and the ECN marks. A run with PFC and drops (the pfc-headroom-loss example) is told likewise.
 */
class VizOnRealRunsTest {

    @Test
    void aLoadedFabricIsToldAndDrawnWithItsQueuesPausesMarksAndFlows(@TempDir Path out) throws Exception {
        List<String> problems = new ArrayList<>();
        Map<String, Integer> kinds = TraceConformanceTest.runAndCheck(TraceConformanceTest.LOADED, out, problems);
        assertEquals(List.of(), problems);

        Explanation x = Explainer.explainRun(out);
        String head = String.join("\n", x.header());
        assertTrue(head.contains("port queues are traced (port_queue; port_sample: "
                + kinds.get(TraceKind.PORT_SAMPLE) + " samples)"), head);
        long pauses = ScenarioJson.readTrace(out.resolve("events.jsonl")).stream()
                .filter(e -> TraceKind.PFC.equals(e.path("kind").asText()) && e.path("paused").asLong() == 1).count();
        assertTrue(head.contains("PFC: " + pauses + " pauses traced"), head);
        assertTrue(head.contains("ECN: " + kinds.get(TraceKind.ECN_MARK) + " packets marked"), head);
        assertTrue(head.contains("Workload: "), head);
        assertFalse(String.join(" ", x.limits()).contains("switch queues"), x.limits().toString());

        RunViews.write(out);
        String timeline = Files.readString(out.resolve(Timeline.FILE), StandardCharsets.UTF_8);
        String port = ScenarioJson.readTrace(out.resolve("events.jsonl")).stream()
                .filter(e -> TraceKind.PORT_QUEUE.equals(e.path("kind").asText())).findFirst().orElseThrow()
                .path("port").asText();
        assertTrue(timeline.contains("\"" + port.replace(">", "\\u003E") + "\""),
                "the timeline draws port " + port);

        String perfetto = Files.readString(out.resolve("trace.json"), StandardCharsets.UTF_8);
        assertTrue(perfetto.contains("\"cat\":\"ecn_mark\""), "ECN marks are instants in trace.json");
        assertTrue(perfetto.contains("\"cat\":\"port\""), "ports have counters in trace.json");
        assertTrue(perfetto.contains("\"utilisation\""), "port samples' utilisation is a counter in trace.json");
    }

    @Test
    void aRunWithPausesAndDropsIsToldWithThem(@TempDir Path out) throws Exception {
        List<String> problems = new ArrayList<>();
        TraceConformanceTest.runAndCheck(ScenarioJson.examplesDir().resolve("pfc-headroom-loss.json"), out, problems);
        assertEquals(List.of(), problems);
        String head = String.join("\n", Explainer.explainRun(out).header());
        assertTrue(head.contains("port queues are traced (port_queue)"), head);
        assertTrue(head.contains("PFC: "), head);
        assertTrue(head.contains("Packets lost: switch S dropped"), head);
    }
}

package org.datsim.scenario.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.cli.DatsimCli;
import org.datsim.scenario.load.ScenarioLoader;
import org.datsim.scenario.run.ScenarioRunner;
import org.datsim.viz.explain.Times;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example {@code cm-req-loss}: switch S drops A's second connection request, and only that packet; A's
 * connection manager sends it again after {@code cm.response_timeout}, and the connection is established then.
 * {@code datsim explain} tells the drop and the resend, against a reviewed golden file
 * ({@code src/test/resources/explain/cm-req-loss.txt}; to regenerate after a deliberate change, run the example,
 * {@code datsim explain} it into the file and review the diff line by line).
 */
class CmLossExplainTest {

    private static final long RESPONSE_TIMEOUT = 4_294_967_296_000L; // rdma_cm's 4.29 s, the default

    @Test
    void theLostConnectionRequestAndItsResendAreToldAsTheTraceShowsThem(@TempDir Path out) throws Exception {
        new ScenarioRunner(ScenarioLoader.load(ScenarioJson.examplesDir().resolve("cm-req-loss.json")))
                .run(out, List.of());
        List<JsonNode> drops = new ArrayList<>();
        List<JsonNode> retries = new ArrayList<>();
        long establishedA2 = -1;
        for (JsonNode e : ScenarioJson.readTrace(out.resolve("events.jsonl"))) {
            String kind = e.get("kind").asText();
            if ("drop".equals(kind)) {
                drops.add(e);
            } else if ("cm_retry".equals(kind)) {
                retries.add(e);
            } else if ("event".equals(kind) && "A/ctl".equals(e.path("ep").asText())
                    && "DAT_CONNECTION_EVENT_ESTABLISHED".equals(e.path("event").asText())) {
                establishedA2 = e.get("t_ps").asLong();
            }
        }
        assertEquals(1, drops.size(), "the REQ, and no packet of the Write: " + drops);
        JsonNode drop = drops.get(0);
        assertEquals("cm", drop.path("packet").asText());
        assertEquals("REQ", drop.path("message").asText());
        assertEquals(1, retries.size(), retries::toString);
        JsonNode retry = retries.get(0);
        assertEquals("A/ctl", retry.path("ep").asText());
        assertEquals("REQ", retry.path("message").asText());
        assertEquals(drop.path("comm_id").asLong(), retry.path("comm_id").asLong(), "the lost REQ's connection");
        long dropAt = drop.get("t_ps").asLong();
        long retryAt = retry.get("t_ps").asLong();
        assertTrue(retryAt - dropAt > RESPONSE_TIMEOUT - 10_000_000L && retryAt - dropAt < RESPONSE_TIMEOUT,
                "sent again cm.response_timeout after it left A, a few us before it was dropped");
        assertTrue(establishedA2 > retryAt, "A/ctl connected only after the resend");

        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        assertEquals(0, DatsimCli.execute(new String[] {"explain", out.toString()}, new PrintWriter(o),
                new PrintWriter(e)), e::toString);
        String got = o.toString().replace("\r\n", "\n");
        long conn = drop.path("comm_id").asLong();
        assertTrue(got.contains(Times.human(dropAt) + "  * switch S dropped A's REQ to B (connection " + conn
                + ") on arrival over A->S: "), got);
        assertTrue(got.contains(Times.human(retryAt) + "  * A/ctl's REQ to B (connection " + conn + ") was resent once"
                + " after " + Times.human(RESPONSE_TIMEOUT) + " without a REP or REJ (cm.response_timeout): switch S"
                + " dropped the REQ at " + Times.human(dropAt) + "\n"), got);
        assertTrue(got.contains("go-back-N resends after a loss, connection-manager resends and timeouts, switch"
                + " drops"), "the legend names what is starred: " + got);
        Path golden = Paths.get("src/test/resources/explain/cm-req-loss.txt");
        assertEquals(Files.readString(golden, StandardCharsets.UTF_8), got, "golden " + golden);
    }
}

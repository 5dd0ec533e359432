package org.datsim.scenario.bridge;

import static org.datsim.scenario.bridge.ProgramClient.evd;
import static org.datsim.scenario.bridge.ProgramClient.ok;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.param.Params;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.FabricPresets;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.scenario.cli.DatsimCli;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same consumer, two ways in: two Java programs attached through the bridge ({@link ProgramClient}: connect,
 * Sends into posted receives, an RDMA Write and Read, a Write with immediate data, both IB atomics, waits, a
 * disconnect) are recorded with {@code serve --record},
 * and {@code datsim run} of the recording, a scenario, gives the live trace line by line, timings included, on
 * every preset. Needs no gcc or dapl (DaplRecordIntegrationTest does the same with dtest, opt-in). The posts' CPU
 * costs are checked too: a bridged post pays {@code cpu.post_overhead} before it and, on the send queue,
 * {@code cpu.doorbell_occupancy} after it, as a scenario's.
 */
class BridgeScenarioEquivalenceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long INFINITE = Dat.TIMEOUT_INFINITE;
    private static final int SENDS = 4;
    private static final int IMMEDIATE = 0xCAFE;

    @TempDir
    Path dir;

    /** A's LMR, for B's RDMA (handed over in Java: B reads it only after its connection is established). */
    private volatile int rmrContextA;
    private volatile long addressA;

    @Test
    void aRecordedBridgedRunReplaysToTheSameTraceOnEveryPreset() throws Exception {
        List<String> presets = FabricPresets.names();
        assertTrue(presets.contains("ib-edr") && presets.contains("ideal"), presets.toString());
        for (String preset : presets) {
            Path fabric = dir.resolve(preset + ".json");
            Files.writeString(fabric, "{\"scenario\": \"eq\", \"seed\": 1, \"fabric\": {\"preset\": \"" + preset
                    + "\", \"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}, \"processes\": []}");
            Path live = dir.resolve(preset + "-live");
            Path recording = dir.resolve(preset + "-recorded.json");
            Scenario scenario = ScenarioLoader.load(fabric);
            serveTwoPrograms(scenario, fabric, live, recording);

            Path replay = dir.resolve(preset + "-replay");
            StringWriter runOut = new StringWriter();
            int run = DatsimCli.execute(new String[] {"run", recording.toString(), "--out", replay.toString()},
                    new PrintWriter(runOut, true), new PrintWriter(runOut, true));
            assertEquals(0, run, preset + ": " + runOut + "\n" + Files.readString(recording));
            List<String> liveLines = DaplRecordIntegrationTest.comparable(live.resolve("events.jsonl"));
            List<String> replayed = DaplRecordIntegrationTest.comparable(replay.resolve("events.jsonl"));
            assertTrue(liveLines.stream().filter(l -> l.contains("\"kind\":\"dequeue\"")).count() >= 2 * SENDS,
                    preset + ": the receives and sends complete");
            assertTrue(liveLines.stream().anyMatch(l -> l.contains("\"kind\":\"dequeue\"")
                    && l.contains("\"immediate_data\":" + IMMEDIATE)), preset + ": the bridge's dequeue line has the"
                    + " immediate data, as a scenario's");
            sameLines(preset, liveLines, replayed);
            postsPayTheirCost(preset, scenario.params(), live.resolve("events.jsonl"));
        }
    }

    /**
     * The traces are equal line by line (the first difference is the message, not two whole traces). Lines of
     * different hosts at the same simulated time are compared host by host: their order is that of two programs'
     * requests arriving at one instant (every call at 0 ps on the ideal preset), which the live run takes as they
     * come; each host's lines keep their order.
     */
    static void sameLines(String what, List<String> live, List<String> replayed) {
        live = byTimeAndHost(live);
        replayed = byTimeAndHost(replayed);
        for (int i = 0; i < Math.min(live.size(), replayed.size()); i++) {
            assertEquals(live.get(i), replayed.get(i), what + ": line " + (i + 1) + " of the live trace and the replay's");
        }
        assertEquals(live.size(), replayed.size(), what + ": lines in the live trace and the replay's");
    }

    private static final java.util.regex.Pattern TIME = java.util.regex.Pattern.compile("\"t_ps\":(\\d+)");
    private static final java.util.regex.Pattern HOST = java.util.regex.Pattern.compile("\"host\":\"([^\"]*)\"");

    /** The lines, stably sorted by time then host (a stable sort keeps each host's order at one instant). */
    private static List<String> byTimeAndHost(List<String> lines) {
        List<String> sorted = new ArrayList<>(lines);
        sorted.sort(java.util.Comparator.<String>comparingLong(l -> {
            java.util.regex.Matcher m = TIME.matcher(l);
            return m.find() ? Long.parseLong(m.group(1)) : -1;
        }).thenComparing(l -> {
            java.util.regex.Matcher m = HOST.matcher(l);
            return m.find() ? m.group(1) : "";
        }));
        return sorted;
    }

    /** B's Sends follow one another by cpu.post_overhead + cpu.doorbell_occupancy, as a scenario's posts do. */
    private void postsPayTheirCost(String preset, Params params, Path events) throws Exception {
        List<Long> sends = new ArrayList<>();
        for (String l : Files.readAllLines(events)) {
            JsonNode n = JSON.readTree(l);
            if ("dat_ep_post_send".equals(n.path("call").asText())) {
                sends.add(n.get("t_ps").asLong());
            }
        }
        assertEquals(SENDS, sends.size(), preset);
        long want = params.get(FabricParams.CPU_POST_OVERHEAD) + params.get(FabricParams.CPU_DOORBELL_OCCUPANCY);
        for (int i = 1; i < sends.size(); i++) {
            assertEquals(want, sends.get(i) - sends.get(i - 1), preset + ": post " + i);
        }
    }

    private void serveTwoPrograms(Scenario scenario, Path fabric, Path out, Path recording) throws Exception {
        Files.createDirectories(out);
        Path sock = out.resolve("s.sock");
        StringWriter log = new StringWriter();
        BridgeServer server = new BridgeServer(scenario, sock, 10_000, 2, new PrintWriter(log, true));
        server.record(JSON.readTree(fabric.toFile()), recording);
        int[] rc = {-1};
        Thread serving = new Thread(() -> {
            try {
                rc[0] = server.serve(out);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        serving.start();
        while (!Files.exists(sock)) {
            Thread.sleep(10);
        }
        Throwable[] failed = new Throwable[2];
        Thread a = ProgramClient.start(() -> passive(sock), failed, 0);
        Thread b = ProgramClient.start(() -> active(sock), failed, 1);
        a.join(60_000);
        b.join(60_000);
        serving.join(60_000);
        for (Throwable t : failed) {
            if (t != null) {
                throw new AssertionError(log.toString(), t);
            }
        }
        assertEquals(0, rc[0], log.toString());
        assertTrue(!log.toString().contains("not recorded"), log.toString());
    }

    /** Host A: listens, accepts, takes SENDS Sends into its posted receives, waits for the disconnect. */
    private void passive(Path sock) throws Exception {
        try (ProgramClient c = new ProgramClient(sock)) {
            ok(c, c.call(Request.HELLO, "A", 1, 0));
            ok(c, c.call(Request.IA_OPEN, "datsim-A", 8));
            int ia = c.in.getInt();
            ok(c, c.call(Request.PZ_CREATE, ia));
            int pz = c.in.getInt();
            int crEvd = evd(c, ia, Dat.EVD_CR_FLAG);
            int connEvd = evd(c, ia, Dat.EVD_CONNECTION_FLAG);
            int dtoEvd = evd(c, ia, Dat.EVD_DTO_FLAG);
            ok(c, c.call(Request.LMR_CREATE, ia, 0x100000L, 65536L, pz,
                    Dat.MEM_PRIV_ALL | Dat.IB_MEM_PRIV_REMOTE_ATOMIC));
            int lmr = c.in.getInt();
            int lmrContext = c.in.getInt();
            rmrContextA = c.in.getInt();
            addressA = 0x100000L;
            ok(c, c.call(Request.EP_CREATE, ia, pz, dtoEvd, dtoEvd, connEvd, 0, 0));
            int ep = c.in.getInt();
            for (int i = 0; i <= SENDS; i++) { // one more for the write with immediate data
                ok(c, c.call(Request.POST_RECV, ep, 1, new ProgramClient.Triplet(lmrContext, 0x100000L + 4096L * i,
                        4096L), (long) i, 0));
            }
            ok(c, c.call(Request.PSP_CREATE, ia, 1234L, crEvd, 0));
            ok(c, c.call(Request.EVD_WAIT, crEvd, INFINITE, 1));
            ProgramClient.Event request = c.waitEvent();
            assertEquals(Dat.CONNECTION_REQUEST_EVENT, request.number());
            ok(c, c.call(Request.CR_ACCEPT, request.cr(), ep, new byte[0]));
            ok(c, c.call(Request.EVD_WAIT, connEvd, INFINITE, 1));
            assertEquals(Dat.CONNECTION_EVENT_ESTABLISHED, c.waitEvent().number());
            for (int i = 0; i <= SENDS; i++) {
                ok(c, c.call(Request.EVD_WAIT, dtoEvd, INFINITE, 1));
                assertEquals(i < SENDS ? Dat.DTO_COMPLETION_EVENT : Dat.IB_DTO_EVENT, c.waitEvent().number());
            }
            ok(c, c.call(Request.EVD_WAIT, connEvd, INFINITE, 1));
            ok(c, c.call(Request.LMR_FREE, lmr));
        }
    }

    /** Host B: connects after 50 us, Sends SENDS times, writes and reads A's LMR, reaps, disconnects. */
    private void active(Path sock) throws Exception {
        try (ProgramClient c = new ProgramClient(sock)) {
            ok(c, c.call(Request.HELLO, "B", 2, 0));
            ok(c, c.call(Request.IA_OPEN, "datsim-B", 8));
            int ia = c.in.getInt();
            ok(c, c.call(Request.PZ_CREATE, ia));
            int pz = c.in.getInt();
            int connEvd = evd(c, ia, Dat.EVD_CONNECTION_FLAG);
            int dtoEvd = evd(c, ia, Dat.EVD_DTO_FLAG);
            ok(c, c.call(Request.LMR_CREATE, ia, 0x200000L, 65536L, pz, Dat.MEM_PRIV_ALL));
            c.in.getInt();
            int lmrContext = c.in.getInt();
            ok(c, c.call(Request.EP_CREATE, ia, pz, dtoEvd, dtoEvd, connEvd, 0, 0));
            int ep = c.in.getInt();
            // 50 us of simulated time for A to listen (a wait that times out: no wall-time handshake)
            assertEquals(DatReturn.TIMEOUT_EXPIRED, DatReturn.type(c.call(Request.EVD_WAIT, dtoEvd, 50L, 1)));
            ok(c, c.call(Request.EP_CONNECT, ep, Protocol.ipOf(0), 1234L, 1_000_000L, new byte[0]));
            ok(c, c.call(Request.EVD_WAIT, connEvd, INFINITE, 1));
            assertEquals(Dat.CONNECTION_EVENT_ESTABLISHED, c.waitEvent().number());
            ProgramClient.Triplet local = new ProgramClient.Triplet(lmrContext, 0x200000L, 4096L);
            for (int i = 0; i < SENDS; i++) {
                ok(c, c.call(Request.POST_SEND, ep, 1, local, 100L + i, 0));
            }
            ProgramClient.Triplet remote = new ProgramClient.Triplet(rmrContextA, addressA, 8192L);
            ProgramClient.Triplet local2 = new ProgramClient.Triplet(lmrContext, 0x200000L, 8192L);
            ok(c, c.call(Request.POST_WRITE, ep, 1, local2, 200L, 0, remote));
            ok(c, c.call(Request.POST_READ, ep, 1, local2, 201L, 0, remote));
            ok(c, c.call(Request.POST_WRITE_IMMED, ep, 1, local2, 202L, 0, remote, IMMEDIATE));
            ProgramClient.Triplet word = new ProgramClient.Triplet(lmrContext, 0x208000L, 8L);
            ProgramClient.Triplet remoteWord = new ProgramClient.Triplet(rmrContextA, addressA + 0x8000L, 8L);
            ok(c, c.call(Request.POST_ATOMIC, ep, 0, 5L, 0L, 1, word, 203L, 0, remoteWord));
            ok(c, c.call(Request.POST_ATOMIC, ep, 1, 5L, 9L, 1, word, 204L, 0, remoteWord));
            for (int i = 0; i < SENDS + 5; i++) {
                ok(c, c.call(Request.EVD_WAIT, dtoEvd, INFINITE, 1));
                int number = c.waitEvent().number(); // the IB extensions' posts complete as DAT_IB_DTO_EVENT
                assertTrue(number == Dat.DTO_COMPLETION_EVENT || number == Dat.IB_DTO_EVENT, "event " + number);
            }
            ok(c, c.call(Request.EP_DISCONNECT, ep, (long) Dat.CLOSE_GRACEFUL_FLAG));
            ok(c, c.call(Request.EVD_WAIT, connEvd, INFINITE, 1));
        }
    }
}

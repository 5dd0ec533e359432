package org.datsim.scenario.bridge;

import static org.datsim.scenario.bridge.ProgramClient.evd;
import static org.datsim.scenario.bridge.ProgramClient.ok;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.datsim.fabric.FabricPresets;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.scenario.cli.DatsimCli;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The calls {@code serve --record} writes beyond those of {@link BridgeScenarioEquivalenceTest}, made by two Java
 * programs ({@link ProgramClient}; no gcc or dapl needed) and replayed: a shared receive queue (created, resized,
 * its low watermark set, an endpoint on it, receives posted to it, freed), an EVD's CNO changed and its CNO's agent,
 * an EVD resized, disabled and enabled, made unwaitable and waitable, a software event, a PSP on a qualifier the
 * provider picks, both LMR syncs, an RMR bound and unbound, dat_ep_recv_query and dat_ep_set_watermark, an RSP,
 * dat_ep_dup_connect (whose request is rejected). On every preset the recording holds every call (the server names
 * none as not recorded) and {@code datsim run} of it gives the live trace line by line, timings included.
 */
class BridgeRecordedCallsEquivalenceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long INFINITE = Dat.TIMEOUT_INFINITE;
    private static final int SENDS = 3;
    private static final List<String> NEWLY_RECORDED = List.of("dat_srq_create", "dat_srq_resize", "dat_srq_set_lw",
            "dat_ep_create_with_srq", "dat_srq_post_recv", "dat_srq_free", "dat_evd_modify_cno",
            "dat_cno_modify_agent", "dat_evd_resize", "dat_evd_disable", "dat_evd_enable", "dat_evd_set_unwaitable",
            "dat_evd_clear_unwaitable", "dat_evd_post_se", "dat_psp_create_any", "dat_lmr_sync_rdma_write",
            "dat_lmr_sync_rdma_read", "dat_rmr_bind", "dat_ep_recv_query", "dat_ep_set_watermark", "dat_rsp_create",
            "dat_ep_dup_connect");

    @TempDir
    Path dir;

    /** The qualifier A's PSP listens on, which the provider picked (handed to B in Java, as over TCP). */
    private volatile long qual = -1;

    @Test
    void recordedSrqAndObjectCallsReplayToTheSameTraceOnEveryPreset() throws Exception {
        for (String preset : FabricPresets.names()) {
            Path fabric = dir.resolve(preset + ".json");
            Files.writeString(fabric, "{\"scenario\": \"rc\", \"seed\": 1, \"fabric\": {\"preset\": \"" + preset
                    + "\", \"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}, \"processes\": []}");
            Path live = dir.resolve(preset + "-live");
            Path recording = dir.resolve(preset + "-recorded.json");
            qual = -1;
            serve(fabric, live, recording);
            String recorded = Files.readString(recording);
            for (String call : NEWLY_RECORDED) {
                assertTrue(recorded.contains("\"call\" : \"" + call + "\""), preset + ": " + call + " is recorded");
            }
            Path replay = dir.resolve(preset + "-replay");
            StringWriter runOut = new StringWriter();
            int run = DatsimCli.execute(new String[] {"run", recording.toString(), "--out", replay.toString()},
                    new PrintWriter(runOut, true), new PrintWriter(runOut, true));
            assertEquals(0, run, preset + ": " + runOut + "\n" + recorded);
            BridgeScenarioEquivalenceTest.sameLines(preset,
                    DaplRecordIntegrationTest.comparable(live.resolve("events.jsonl")),
                    DaplRecordIntegrationTest.comparable(replay.resolve("events.jsonl")));
        }
    }

    private void serve(Path fabric, Path out, Path recording) throws Exception {
        Files.createDirectories(out);
        Path sock = out.resolve("s.sock");
        StringWriter log = new StringWriter();
        BridgeServer server = new BridgeServer(ScenarioLoader.load(fabric), sock, 10_000, 2,
                new PrintWriter(log, true));
        server.record(JSON.readTree(fabric.toFile()), recording);
        ServingThread serving = ServingThread.start(server, out, sock);
        Throwable[] failed = new Throwable[2];
        Thread a = ProgramClient.start(() -> passive(sock), failed, 0);
        Thread b = ProgramClient.start(() -> active(sock), failed, 1);
        a.join(60_000);
        b.join(60_000);
        serving.thread.join(60_000);
        for (int i = failed.length - 1; i >= 0; i--) { // B's first: A fails when B left
            if (failed[i] != null) {
                throw new AssertionError((i == 0 ? "A" : "B") + "\n" + log, failed[i]);
            }
        }
        assertEquals(0, serving.rc(), log.toString());
        assertTrue(!log.toString().contains("not recorded"), log.toString());
    }

    /**
     * Host A: an SRQ endpoint that listens on a PSP of any qualifier, accepts B and rejects B's dup connect, takes
     * B's Sends from the SRQ, then syncs its LMR, binds and unbinds an RMR, and disconnects.
     */
    private void passive(Path sock) throws Exception {
        try (ProgramClient c = new ProgramClient(sock)) {
            ok(c, c.call(Request.HELLO, "A", 1, 0));
            ok(c, c.call(Request.IA_OPEN, "datsim-A", 8));
            int ia = c.in.getInt();
            ok(c, c.call(Request.PZ_CREATE, ia));
            int pz = c.in.getInt();
            ok(c, c.call(Request.CNO_CREATE, ia, 1));
            int cno = c.in.getInt();
            ok(c, c.call(Request.CNO_MODIFY_AGENT, cno, 0L));
            int crEvd = evd(c, ia, Dat.EVD_CR_FLAG);
            int connEvd = evd(c, ia, Dat.EVD_CONNECTION_FLAG);
            int dtoEvd = evd(c, ia, Dat.EVD_DTO_FLAG | Dat.EVD_RMR_BIND_FLAG | Dat.EVD_SOFTWARE_FLAG);
            ok(c, c.call(Request.EVD_MODIFY_CNO, dtoEvd, cno));
            ok(c, c.call(Request.EVD_MODIFY_CNO, dtoEvd, 0));
            ok(c, c.call(Request.EVD_RESIZE, dtoEvd, 128L));
            ok(c, c.call(Request.EVD_ENABLE, dtoEvd, 0L));
            ok(c, c.call(Request.EVD_ENABLE, dtoEvd, 1L));
            ok(c, c.call(Request.EVD_UNWAITABLE, dtoEvd, 1L));
            ok(c, c.call(Request.EVD_UNWAITABLE, dtoEvd, 0L));
            ok(c, c.call(Request.LMR_CREATE, ia, 0x100000L, 65536L, pz, Dat.MEM_PRIV_ALL));
            int lmr = c.in.getInt();
            int lmrContext = c.in.getInt();
            ok(c, c.call(Request.RMR_CREATE, pz));
            int rmr = c.in.getInt();
            ok(c, c.call(Request.SRQ_CREATE, ia, pz, 8, 1, 0));
            int srq = c.in.getInt();
            ok(c, c.call(Request.SRQ_RESIZE, srq, 16L));
            c.call(Request.SRQ_SET_LW, srq, 1L); // recorded with what it returned
            ok(c, c.call(Request.EP_CREATE, ia, pz, dtoEvd, dtoEvd, connEvd, srq, 0));
            int ep = c.in.getInt();
            c.call(Request.EP_SET_WATERMARK, ep, 4, 8);
            for (int i = 0; i < SENDS; i++) {
                ok(c, c.call(Request.SRQ_POST_RECV, srq, 1, new ProgramClient.Triplet(lmrContext,
                        0x100000L + 4096L * i, 4096L), (long) i));
            }
            ok(c, c.call(Request.PSP_CREATE_ANY, ia, crEvd, 0));
            c.in.getInt();
            qual = c.in.getLong();
            ok(c, c.call(Request.EVD_WAIT, crEvd, INFINITE, 1));
            ProgramClient.Event request = c.waitEvent();
            assertEquals(Dat.CONNECTION_REQUEST_EVENT, request.number());
            ok(c, c.call(Request.CR_ACCEPT, request.cr(), ep, new byte[0]));
            ok(c, c.call(Request.EVD_WAIT, connEvd, INFINITE, 1));
            assertEquals(Dat.CONNECTION_EVENT_ESTABLISHED, c.waitEvent().number());
            ok(c, c.call(Request.EVD_WAIT, crEvd, INFINITE, 1)); // B's dup connect
            ok(c, c.call(Request.CR_REJECT, c.waitEvent().cr()));
            for (int i = 0; i < SENDS; i++) {
                ok(c, c.call(Request.EVD_WAIT, dtoEvd, INFINITE, 1));
                assertEquals(Dat.DTO_COMPLETION_EVENT, c.waitEvent().number());
            }
            c.call(Request.EP_RECV_QUERY, ep);
            ok(c, c.call(Request.EVD_POST_SE, dtoEvd, 77L));
            ok(c, c.call(Request.EVD_DEQUEUE, dtoEvd));
            ok(c, c.call(Request.LMR_SYNC, ia, 1, 1, new ProgramClient.Triplet(lmrContext, 0x100040L, 64L)));
            ok(c, c.call(Request.LMR_SYNC, ia, 0, 1, new ProgramClient.Triplet(lmrContext, 0x100080L, 64L)));
            ok(c, c.call(Request.RMR_BIND, rmr, lmr, 1, new ProgramClient.Triplet(lmrContext, 0x101000L, 4096L),
                    Dat.MEM_PRIV_REMOTE_WRITE, ep, 300L, 0));
            ok(c, c.call(Request.EVD_WAIT, dtoEvd, INFINITE, 1));
            assertEquals(Dat.RMR_BIND_COMPLETION_EVENT, c.waitEvent().number());
            ok(c, c.call(Request.RMR_BIND, rmr, 0, 1, new ProgramClient.Triplet(0, 0L, 0L), 0, ep, 301L, 0));
            ok(c, c.call(Request.EVD_WAIT, dtoEvd, INFINITE, 1));
            assertEquals(Dat.RMR_BIND_COMPLETION_EVENT, c.waitEvent().number());
            ok(c, c.call(Request.EP_DISCONNECT, ep, (long) Dat.CLOSE_GRACEFUL_FLAG));
            ok(c, c.call(Request.EVD_WAIT, connEvd, INFINITE, 1));
            ok(c, c.call(Request.EP_FREE, ep));
            ok(c, c.call(Request.SRQ_FREE, srq));
            ok(c, c.call(Request.RMR_FREE, rmr));
            ok(c, c.call(Request.LMR_FREE, lmr));
        }
    }

    /** Host B: reserves a qualifier (an RSP), connects, dup-connects (rejected), Sends, waits for A's disconnect. */
    private void active(Path sock) throws Exception {
        try (ProgramClient c = new ProgramClient(sock)) {
            ok(c, c.call(Request.HELLO, "B", 2, 0));
            ok(c, c.call(Request.IA_OPEN, "datsim-B", 8));
            int ia = c.in.getInt();
            ok(c, c.call(Request.PZ_CREATE, ia));
            int pz = c.in.getInt();
            int crEvd = evd(c, ia, Dat.EVD_CR_FLAG);
            int connEvd = evd(c, ia, Dat.EVD_CONNECTION_FLAG);
            int dupEvd = evd(c, ia, Dat.EVD_CONNECTION_FLAG);
            int dtoEvd = evd(c, ia, Dat.EVD_DTO_FLAG);
            ok(c, c.call(Request.LMR_CREATE, ia, 0x200000L, 65536L, pz, Dat.MEM_PRIV_ALL));
            c.in.getInt();
            int lmrContext = c.in.getInt();
            ok(c, c.call(Request.EP_CREATE, ia, pz, dtoEvd, dtoEvd, connEvd, 0, 0));
            int ep = c.in.getInt();
            ok(c, c.call(Request.EP_CREATE, ia, pz, dtoEvd, dtoEvd, connEvd, 0, 0));
            int reserved = c.in.getInt();
            ok(c, c.call(Request.RSP_CREATE, ia, 5555L, reserved, crEvd));
            int rsp = c.in.getInt();
            ok(c, c.call(Request.RSP_FREE, rsp));
            ok(c, c.call(Request.EP_CREATE, ia, pz, dtoEvd, dtoEvd, dupEvd, 0, 0));
            int dup = c.in.getInt();
            // 50 us of simulated time for A to listen (a wait that times out: no wall-time handshake)
            assertEquals(DatReturn.TIMEOUT_EXPIRED, DatReturn.type(c.call(Request.EVD_WAIT, dtoEvd, 50L, 1)));
            while (qual < 0) {
                Thread.sleep(1);
            }
            ok(c, c.call(Request.EP_CONNECT, ep, Protocol.ipOf(0), qual, 1_000_000L, new byte[0]));
            ok(c, c.call(Request.EVD_WAIT, connEvd, INFINITE, 1));
            assertEquals(Dat.CONNECTION_EVENT_ESTABLISHED, c.waitEvent().number());
            ok(c, c.call(Request.EP_DUP_CONNECT, dup, ep, 1_000_000L, new byte[] {7}));
            ok(c, c.call(Request.EVD_WAIT, dupEvd, INFINITE, 1));
            int rejected = c.waitEvent().number();
            assertTrue(rejected == Dat.CONNECTION_EVENT_PEER_REJECTED
                    || rejected == Dat.CONNECTION_EVENT_NON_PEER_REJECTED, "event " + rejected);
            ProgramClient.Triplet local = new ProgramClient.Triplet(lmrContext, 0x200000L, 4096L);
            for (int i = 0; i < SENDS; i++) {
                ok(c, c.call(Request.POST_SEND, ep, 1, local, 100L + i, 0));
            }
            for (int i = 0; i < SENDS; i++) {
                ok(c, c.call(Request.EVD_WAIT, dtoEvd, INFINITE, 1));
                assertEquals(Dat.DTO_COMPLETION_EVENT, c.waitEvent().number());
            }
            ok(c, c.call(Request.EVD_WAIT, connEvd, INFINITE, 1));
            assertEquals(Dat.CONNECTION_EVENT_DISCONNECTED, c.waitEvent().number());
        }
    }
}

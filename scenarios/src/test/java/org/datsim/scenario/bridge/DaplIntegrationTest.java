package org.datsim.scenario.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dapl's own test programs, unmodified from Debian's dapl2-utils, against {@code datsim serve} with two simulated
 * hosts, through provider/libdatsim.so. Opt-in (DATSIM_DAPL_TEST=1, which .ci/run sets after installing
 * dapl2-utils, libdapl-dev and gcc) because it needs those packages and takes about a minute.
 */
class DaplIntegrationTest {

    static final String OPT_IN = "DATSIM_DAPL_TEST";
    static final Path PROVIDER = Paths.get("..", "provider").toAbsolutePath().normalize();
    static final Path FABRIC = PROVIDER.resolve("examples/two-hosts.json");

    @TempDir
    Path dir;

    @BeforeAll
    static void build() throws Exception {
        Assumptions.assumeTrue("1".equals(System.getenv(OPT_IN)),
                "the dapl integration test is opt-in: set " + OPT_IN + "=1 (needs dapl2-utils, libdapl-dev, gcc)");
        for (String tool : new String[] {"/usr/bin/dtest", "/usr/bin/dtestcm", "/usr/include/dat2/udat.h"}) {
            Assumptions.assumeTrue(new File(tool).exists(), tool + " is missing: install dapl2-utils libdapl-dev");
        }
        Process make = new ProcessBuilder("make", "-s", "-C", PROVIDER.toString(), "libdatsim.so", "bench")
                .redirectErrorStream(true).start();
        String out = new String(make.getInputStream().readAllBytes());
        assertTrue(make.waitFor(120, TimeUnit.SECONDS) && make.exitValue() == 0, "make -C provider: " + out);
    }

    /** What one pair of programs did: their exit codes and outputs, and the server's. */
    record Run(int serverRc, String server, int clientRc, String client, int serveRc, String serve, Path out) {
        String all() {
            return "server:\n" + server + "\nclient:\n" + client + "\nserve:\n" + serve;
        }
    }

    /** Runs a server program on host A and a client on host B against one datsim serve. */
    Run pair(String prog, List<String> serverArgs, List<String> clientArgs, String ready, long graceMs)
            throws Exception {
        return pair(prog, serverArgs, clientArgs, ready, graceMs, 0);
    }

    /** {@link #pair} that starts the client {@code delayMs} after the server said it is ready. */
    Run pair(String prog, List<String> serverArgs, List<String> clientArgs, String ready, long graceMs, long delayMs)
            throws Exception {
        Path out = dir.resolve(prog + "-" + System.nanoTime());
        Files.createDirectories(out);
        Path sock = out.resolve("s.sock");
        StringWriter log = new StringWriter();
        BridgeServer server = new BridgeServer(ScenarioLoader.load(FABRIC), sock, graceMs, 2,
                new PrintWriter(log, true));
        ServingThread serving = ServingThread.start(server, out, sock);
        Process s = start(prog, "A", serverArgs, out, out.resolve("server.log"));
        for (int i = 0; i < 300 && !Files.readString(out.resolve("server.log")).contains(ready); i++) {
            Thread.sleep(50);
        }
        Thread.sleep(delayMs);
        List<String> cargs = new ArrayList<>(clientArgs);
        cargs.addAll(List.of("-h", "127.0.1.1"));
        Process c = start(prog, "B", cargs, out, out.resolve("client.log"));
        boolean done = c.waitFor(240, TimeUnit.SECONDS) & s.waitFor(60, TimeUnit.SECONDS);
        if (!done) {
            s.destroyForcibly();
            c.destroyForcibly();
        }
        serving.thread.join(30_000);
        if (serving.thread.isAlive()) {
            server.stop();
            serving.thread.join(10_000);
        }
        assertTrue(done, "the programs did not end in time");
        return new Run(s.exitValue(), Files.readString(out.resolve("server.log")), c.exitValue(),
                Files.readString(out.resolve("client.log")), serving.rc(), log.toString(), out);
    }

    /**
     * Runs dapltest's server ({@code -T S}) on host A and a client on host B (its {@code -s} and {@code -D} given),
     * then {@code -T Q} from host B to end the server; the {@link Run}'s client output is the test client's.
     */
    Run dapltest(List<String> clientArgs) throws Exception {
        Path out = dir.resolve("dapltest-" + System.nanoTime());
        Files.createDirectories(out);
        Path sock = out.resolve("s.sock");
        StringWriter log = new StringWriter();
        // A grace of 500 ms, not 20: dapltest talks only through DAT, so the grace costs it nothing, and on a loaded
        // machine a 20 ms one detached a thread that was computing, letting simulated time run past its peer's
        // connection request (the test hung once with 20 ms while a second build ran).
        BridgeServer server = new BridgeServer(ScenarioLoader.load(FABRIC), sock, 500, 2,
                new PrintWriter(log, true));
        ServingThread serving = ServingThread.start(server, out, sock);
        Process s = start("dapltest", "-D", "A", List.of("-T", "S"), out, out.resolve("server.log"));
        for (int i = 0; i < 300 && !Files.readString(out.resolve("server.log")).contains("Service Point Ready"); i++) {
            Thread.sleep(50);
        }
        List<String> cargs = new ArrayList<>(clientArgs.subList(0, 2));
        cargs.addAll(List.of("-s", "127.0.1.1"));
        cargs.addAll(clientArgs.subList(2, clientArgs.size()));
        Process c = start("dapltest", "-D", "B", cargs, out, out.resolve("client.log"));
        boolean done = c.waitFor(240, TimeUnit.SECONDS);
        Process q = start("dapltest", "-D", "B", List.of("-T", "Q", "-s", "127.0.1.1"), out, out.resolve("quit.log"));
        done &= q.waitFor(60, TimeUnit.SECONDS) & s.waitFor(60, TimeUnit.SECONDS);
        if (!done) {
            s.destroyForcibly();
            c.destroyForcibly();
            q.destroyForcibly();
        }
        server.stop(); // the quit program attached as a third program: serve does not end by itself
        serving.thread.join(30_000);
        assertTrue(done, "the programs did not end in time");
        return new Run(s.exitValue(), Files.readString(out.resolve("server.log")), c.exitValue(),
                Files.readString(out.resolve("client.log")), serving.rc(), log.toString(), out);
    }

    /** Environment variables the programs get besides the dat.conf and the host (a test's own). */
    private final java.util.Map<String, String> env = new java.util.TreeMap<>();

    private Process start(String prog, String host, List<String> args, Path out, Path log) throws Exception {
        return start(prog, "-P", host, args, out, log);
    }

    private Process start(String prog, String flag, String host, List<String> args, Path out, Path log)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/" + prog));
        int first = flag.equals("-D") ? 2 : 0; // dapltest wants its -T TYPE first
        cmd.addAll(args.subList(0, first));
        cmd.addAll(List.of(flag, "datsim-" + host));
        cmd.addAll(args.subList(first, args.size()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("DAT_OVERRIDE", out.resolve("dat.conf").toString());
        pb.environment().put("DATSIM_HOST", host); // dtest's client opens the provider name its server sends it
        pb.environment().putAll(env);
        return pb.start();
    }

    private static void passed(Run r) throws Exception {
        assertEquals(0, r.serverRc(), r.all());
        assertEquals(0, r.clientRc(), r.all());
        assertTrue(r.server().contains("PASSED") && r.client().contains("PASSED"), r.all());
        assertEquals(0, r.serveRc(), r.all());
        String events = Files.readString(r.out().resolve("events.jsonl"));
        assertTrue(events.contains("\"call\":\"dat_ep_connect\"") && events.contains("\"kind\":\"place\""),
                "the run's trace has the calls and the fabric's placements");
    }

    @Test
    void dtestDefaultModeSendsAndRdmaWritesThroughTheSimulatedFabric() throws Exception {
        Run r = pair("dtest", List.of("-s", "-B", "10", "-b", "65536"), List.of("-B", "10", "-b", "65536"),
                "waiting for client", 20);
        passed(r);
        assertTrue(r.server().contains("RDMA write buffer contains: client RDMA write data"), r.all());
        assertTrue(r.client().contains("RDMA write buffer contains: server RDMA write data"), r.all());
    }

    /**
     * The transport does not change what is simulated: the same dapltest transaction test (a program that talks
     * only through DAT, so its trace does not depend on wall time; dtest's TCP exchange makes its traces differ from
     * run to run with either transport) through the shared-memory rings and through the socket (the library finds
     * no shared-memory directory, says so once, and uses the socket) gives the same events.jsonl, but for the
     * programs' buffer addresses and cookies (dapltest's cookies are pointers): their own virtual addresses, which
     * address space randomisation changes from run to run.
     */
    @Test
    void dapltestGivesTheSameTraceThroughSharedMemoryAndThroughTheSocket() throws Exception {
        List<String> args = List.of("-T", "T", "-i", "10", "-t", "1", "-w", "2", "-V", "client", "SR", "4096", "1",
                "server", "RW", "4096", "1", "server", "RR", "4096", "1");
        Run shm = dapltest(args);
        assertEquals(0, shm.clientRc(), shm.all());
        assertTrue(shm.serve().contains("attached to host A (127.0.1.1) at 0ps, through shared memory"), shm.all());
        assertTrue(shm.serve().contains("another thread attached (A/2) at ") && shm.serve().matches(
                "(?s).*another thread attached \\(A/2\\) at [^\n]*, through shared memory\n.*"), shm.all());
        env.put("DATSIM_SHM", "0");
        Run sock = dapltest(args);
        env.remove("DATSIM_SHM");
        assertEquals(0, sock.clientRc(), sock.all());
        assertTrue(sock.serve().contains("attached to host A (127.0.1.1) at 0ps, through the socket"), sock.all());
        assertTrue(!sock.client().contains("libdatsim:"), "the socket by choice: nothing to say; " + sock.all());
        String pointers = "\"(address|cookie)\":\\d+";
        String a = Files.readString(shm.out().resolve("events.jsonl")).replaceAll(pointers, "");
        String b = Files.readString(sock.out().resolve("events.jsonl")).replaceAll(pointers, "");
        assertTrue(a.contains("\"opcode\":\"rdma_read\""), "a trace with transfers");
        assertEquals(a, b, "the same trace through either transport");
    }

    @Test
    void dtestValidatesDataThatCrossedTheFabricWithMinusD() throws Exception {
        passed(pair("dtest", List.of("-s", "-D", "-B", "10", "-b", "65536"), List.of("-D", "-B", "10", "-b", "65536"),
                "waiting for client", 20));
    }

    @Test
    void dtestRdmaWritePingPongWithMinusCapitalW() throws Exception {
        passed(pair("dtest", List.of("-s", "-W", "-B", "10", "-b", "65536"), List.of("-W", "-B", "10", "-b", "65536"),
                "waiting for client", 20));
    }

    @Test
    void dtestMinusWEndsWithAnRdmaWriteWithImmediateDataThatConsumesTheReceiveOfThePeer() throws Exception {
        Run r = pair("dtest", List.of("-s", "-w", "-B", "10", "-b", "65536"), List.of("-w", "-B", "10", "-b", "65536"),
                "waiting for client", 20);
        passed(r);
        assertTrue(r.server().contains("rdma writes completed == 10 last byte=9")
                && r.client().contains("rdma writes completed == 10 last byte=9"), r.all());
        String events = Files.readString(r.out().resolve("events.jsonl"));
        assertTrue(events.contains("\"opcode\":\"DAT_IB_DTO_RECV_IMMED\"")
                && events.contains("\"opcode\":\"DAT_IB_DTO_RDMA_WRITE_IMMED\""),
                "each side dequeued the peer's Write with immediate as a receive, and its own as a request");
    }

    @Test
    void dtestsrqFourConnectionsShareOneReceiveQueueAndGetTheLastWqeReachedEventOfEachEndpoint() throws Exception {
        // a grace of 500 ms (as dapltest's): dtestsrq's threads compute between their calls, and on a loaded machine
        // 20 ms let simulated time run past its waits' timeouts (DAT_TIMEOUT_EXPIRED, seen under a load of 9)
        Run r = pair("dtestsrq", List.of("-s", "-c", "4", "-B", "4", "-t", "3"), List.of("-c", "4", "-B", "4", "-t", "3"),
                "server ready", 500);
        assertEquals(0, r.serverRc(), r.all());
        assertEquals(0, r.clientRc(), r.all());
        assertTrue(r.server().contains("DAPL RC SRQ Test Complete.")
                && r.client().contains("DAPL RC SRQ Test Complete."), r.all());
        assertTrue(!r.server().contains("ERR") && !r.client().contains("ERR") && !r.server().contains("Error"),
                r.all());
        assertEquals(0, r.serveRc(), r.all());
        long lastWqe = Files.readAllLines(r.out().resolve("events.jsonl")).stream()
                .filter(l -> l.contains("\"kind\":\"dequeue\"") && l.contains("DAT_ASYNC_ERROR_EP_BROKEN")).count();
        assertEquals(8, lastWqe, "both programs waited for the event of each of their four endpoints");
    }

    @Test
    void dtestxRcExtensionsWriteWithImmediateCompareAndSwapAndFetchAndAddPass() throws Exception {
        // dtestx prints its progress only at exit (stdout is a file): start the client a second after the server
        Run r = pair("dtestx", List.of("-s"), List.of("-c"), "", 20, 1000);
        assertEquals(0, r.serverRc(), r.all());
        assertEquals(0, r.clientRc(), r.all());
        for (String test : List.of("RDMA_WRITE_WITH_IMMEDIATE_DATA test - PASSED", "CMP_SWAP test - PASSED",
                "FETCH_ADD test - PASSED", "IB extension test - immed/atomic test PASSED")) {
            assertTrue(r.server().contains(test) && r.client().contains(test), test + "\n" + r.all());
        }
        assertTrue(r.server().contains("Server received immed_data=0x7777")
                && r.client().contains("Client received immed_data=0x1111"), r.all());
        String events = Files.readString(r.out().resolve("events.jsonl"));
        assertTrue(events.contains("\"opcode\":\"DAT_IB_DTO_FETCH_ADD\"")
                && events.contains("\"opcode\":\"DAT_IB_DTO_CMP_SWAP\""), "the atomics crossed the fabric");
    }

    @Test
    void dtestxUnreliableDatagramIsReportedAsNotSupportedWithoutHanging() throws Exception {
        Run r = pair("dtestx", List.of("-s", "-u"), List.of("-u", "-c"), "", 20);
        assertTrue(r.serve().contains("DAT_IB_SERVICE_TYPE_UD), which datsim does not support"), r.all());
        assertTrue(r.server().contains("DAT_NOT_IMPLEMENTED"), r.all());
    }

    @Test
    void dapltestTransactionTestWithSendRdmaWriteAndReadOnTwoEndpointsValidatesItsData() throws Exception {
        Run r = dapltest(List.of("-T", "T", "-i", "10", "-t", "1", "-w", "2", "-V", "client", "SR", "4096", "1",
                "server", "RW", "4096", "1", "server", "RR", "4096", "1"));
        assertEquals(0, r.clientRc(), r.all());
        assertEquals(0, r.serverRc(), r.all());
        assertTrue(r.client().contains("Stats ---- : 1 threads, 2 EPs") && !r.client().contains("Error")
                && !r.server().contains("Error"), r.all());
        assertTrue(r.server().contains("Transaction Test Finished"), r.all());
        String events = Files.readString(r.out().resolve("events.jsonl"));
        assertTrue(events.contains("\"opcode\":\"rdma_read\"") && events.contains("\"opcode\":\"rdma_write\""),
                "the transfers crossed the simulated fabric");
    }

    @Test
    void dapltestPerformanceTestForRdmaWriteAndRead() throws Exception {
        for (String op : new String[] {"RW", "RR"}) {
            Run r = dapltest(List.of("-T", "P", "-i", "100", op, "4096", "2"));
            assertEquals(0, r.clientRc(), r.all());
            assertEquals(0, r.serverRc(), r.all());
            assertTrue(r.client().contains("raw: " + op + ", 100, 4096, 2") && !r.client().contains("Error"),
                    r.all());
            assertTrue(r.server().contains("Finished performance test"), r.all());
        }
    }

    @Test
    void dtestcmConnectsTenTimes() throws Exception {
        Run r = pair("dtestcm", List.of("-s", "-c", "10"), List.of("-c", "10"), "waiting for client", 20);
        assertEquals(0, r.serverRc(), r.all());
        assertEquals(0, r.clientRc(), r.all());
        assertTrue(r.client().contains("Connections:"), r.all());
    }

    @Test
    void theBridgeCarriesDatCallsAtARate() throws Exception {
        Path out = dir.resolve("bench");
        Files.createDirectories(out);
        Path sock = out.resolve("s.sock");
        BridgeServer server = new BridgeServer(ScenarioLoader.load(FABRIC), sock, 2000, 1,
                new PrintWriter(new StringWriter()));
        ServingThread serving = ServingThread.start(server, out, sock);
        ProcessBuilder pb = new ProcessBuilder(PROVIDER.resolve("bench").toString(), "datsim-A", "50000")
                .redirectErrorStream(true);
        pb.environment().put("DAT_OVERRIDE", out.resolve("dat.conf").toString());
        Process b = pb.start();
        String text = new String(b.getInputStream().readAllBytes());
        assertEquals(0, b.waitFor(), text);
        serving.thread.join(30_000);
        assertTrue(text.contains("calls_per_second="), text);
        System.out.println("dapl integration: " + text.trim());
    }
}

package org.datsim.scenario.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code datsim serve} driven over its socket by a client written here as provider/libdatsim.so writes its frames
 * (no gcc or dapl needed): attach, calls made on datsim's provider, unsupported calls, refusals, a program that dies.
 */
class BridgeServerTest {

    @TempDir
    Path dir;

    /** A client speaking the bridge protocol, as the C library does. */
    static final class Client implements AutoCloseable {
        final SocketChannel ch;
        ByteBuffer in;
        /** The CPU time the next request reports (ns). */
        long cpuNs;
        /** The simulated time of the last reply (ps). */
        long now;

        Client(Path socket) throws Exception {
            ch = ProgramClient.connect(socket);
        }

        /** Sends a request and returns its reply's payload, positioned after the DAT_RETURN (read with ret()). */
        int call(int code, Object... args) throws Exception {
            ByteBuffer b = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(0).putInt(code).putLong(cpuNs);
            for (Object a : args) {
                if (a instanceof Integer i) {
                    b.putInt(i);
                } else if (a instanceof Long l) {
                    b.putLong(l);
                } else {
                    byte[] s = ((String) a).getBytes(StandardCharsets.UTF_8);
                    b.putInt(s.length).put(s);
                }
            }
            b.putInt(0, b.position() - 4).flip();
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ByteBuffer hdr = read(8);
            int len = hdr.getInt();
            assertEquals(Protocol.S_REPLY, hdr.getInt(), "a reply");
            in = read(len - 4);
            now = in.getLong();
            return in.getInt();
        }

        /** The most wall time a reply may take (ms; 0: no bound). */
        long timeoutMs;

        ByteBuffer read(int n) throws Exception {
            ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
            long end = System.nanoTime() + timeoutMs * 1_000_000L;
            ch.configureBlocking(timeoutMs == 0);
            while (b.hasRemaining()) {
                int got = ch.read(b);
                if (got < 0) {
                    throw new java.io.EOFException();
                }
                if (got == 0 && timeoutMs > 0) {
                    if (System.nanoTime() - end > 0) {
                        throw new java.io.InterruptedIOException("no reply within " + timeoutMs + " ms");
                    }
                    Thread.sleep(1);
                }
            }
            return b.flip();
        }

        @Override
        public void close() throws Exception {
            ch.close();
        }
    }

    private Path fabric() throws Exception {
        Path f = dir.resolve("fabric.json");
        Files.writeString(f, "{\"scenario\": \"t\", \"seed\": 1, \"fabric\": {\"hosts\": [\"A\", \"B\"],"
                + " \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}, \"processes\": []}");
        return f;
    }

    @Test
    void aProgramAttachesToAHostAndItsCallsAreMadeOnDatsimsProvider() throws Exception {
        Path sock = dir.resolve("s.sock");
        StringWriter log = new StringWriter();
        BridgeServer server = new BridgeServer(ScenarioLoader.load(fabric()), sock, 2000, 1, new PrintWriter(log));
        int[] rc = {-1};
        Thread t = new Thread(() -> {
            try {
                rc[0] = server.serve(dir.resolve("out"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        t.start();
        while (!Files.exists(sock)) {
            Thread.sleep(10);
        }
        try (Client bad = new Client(sock)) {
            assertEquals(DatReturn.PROVIDER_NOT_FOUND, bad.call(Protocol.C_HELLO, "Z", 7, 0), "an unknown host");
        }
        try (Client c = new Client(sock)) {
            assertEquals(DatReturn.SUCCESS, c.call(Protocol.C_HELLO, "B", 42, 0));
            assertEquals(Protocol.ipOf(1), c.in.getInt(), "host B is 127.0.1.2");
            byte[] token = new byte[Handshake.TOKEN_BYTES];
            c.in.get(token);
            assertTrue(token.length == 16 && !java.util.Arrays.equals(token, new byte[16]), "a 128-bit token");
            try (Client second = new Client(sock)) {
                assertEquals(DatReturn.PROVIDER_NOT_FOUND, second.call(Protocol.C_HELLO, "B", 43, 0), "one per host");
            }
            assertEquals(DatReturn.SUCCESS, c.call(Request.IA_OPEN.code(), "datsim-B", 8, 0));
            int ia = c.in.getInt();
            assertEquals(1, ia, "the IA is the first handle");
            assertEquals(DatReturn.SUCCESS, c.call(Request.PZ_CREATE.code(), ia));
            int pz = c.in.getInt();
            assertEquals(DatReturn.SUCCESS, c.call(Request.HANDLE_TYPE.code(), pz));
            assertEquals(DatHandle.TYPE_PZ, c.in.getInt());
            // DAT semantics come from datsim's provider: a PZ in use by an LMR cannot be freed.
            assertEquals(DatReturn.SUCCESS, c.call(Request.LMR_CREATE.code(), ia, 0x10000L, 4096L, pz, 0x33));
            int lmr = c.in.getInt();
            assertEquals(DatReturn.INVALID_STATE, DatReturn.type(c.call(Request.PZ_FREE.code(), pz)));
            assertEquals(DatReturn.SUCCESS, c.call(Request.LMR_FREE.code(), lmr));
            assertEquals(DatReturn.SUCCESS, c.call(Request.PZ_FREE.code(), pz));
            assertEquals(DatReturn.NOT_IMPLEMENTED, c.call(Request.UNSUPPORTED.code(), "dat_csp_create"));
            // An empty dequeue takes cpu.poll_overhead of simulated time, so a polling loop lets time run.
            assertEquals(DatReturn.SUCCESS, c.call(Request.EVD_CREATE.code(), ia, 8, 0, 0x1));
            int evd = c.in.getInt();
            assertEquals(DatReturn.QUEUE_EMPTY, DatReturn.type(c.call(Request.EVD_DEQUEUE.code(), evd)));
            // A wait with a timeout ends in simulated time, not wall time.
            assertEquals(DatReturn.TIMEOUT_EXPIRED, DatReturn.type(c.call(Request.EVD_WAIT.code(), evd, 1000L, 1)));
        } // the program dies: the server ends, as --processes 1 says
        t.join(20_000);
        assertEquals(0, rc[0], log.toString());
        String out = log.toString();
        assertTrue(out.contains("host \"Z\" is not in the fabric"), out);
        assertTrue(out.contains("already has a program attached"), out);
        assertTrue(out.contains("called dat_csp_create, which datsim does not support"), out);
        assertTrue(out.contains("left between calls"), out);
        // the empty dequeue is a poll, not an error: the PZ still in use, the unsupported call and the timeout are
        assertTrue(out.contains(" calls (3 returned errors, 1 empty polls (DAT_QUEUE_EMPTY, not errors))"), out);
        String events = Files.readString(dir.resolve("out/events.jsonl"));
        assertTrue(events.contains("\"call\":\"dat_pz_create\""), "calls are traced");
        assertTrue(events.contains("\"ret\":\"DAT_TIMEOUT_EXPIRED\""), "the wait's timeout is traced");
    }

    /** Runs a server for {@code expected} programs on the two-host fabric, with a CPU scale, in a thread. */
    private Thread serve(BridgeServer server, int[] rc) {
        Thread t = new Thread(() -> {
            try {
                rc[0] = server.serve(dir.resolve("out"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        t.start();
        return t;
    }

    @Test
    void repliesCarryTheSimulatedTimeAndCpuScaleCountsTheCpuTimeBetweenCalls() throws Exception {
        for (double scale : new double[] {0, 2}) {
            Path sock = dir.resolve("c" + (int) scale + ".sock");
            BridgeServer server = new BridgeServer(ScenarioLoader.load(fabric()), sock, 2000, 1,
                    new PrintWriter(new StringWriter()));
            server.cpuScale(scale);
            int[] rc = {-1};
            Thread t = serve(server, rc);
            while (!Files.exists(sock)) {
                Thread.sleep(10);
            }
            try (Client c = new Client(sock)) {
                assertEquals(DatReturn.SUCCESS, c.call(Protocol.C_HELLO, "A", 1, 0));
                c.in.getInt();
                c.in.get(new byte[Handshake.TOKEN_BYTES]);
                assertEquals(Math.round(scale * 1_000_000), c.in.getLong(), "the hello reply gives the scale");
                assertEquals(DatReturn.SUCCESS, c.call(Request.IA_OPEN.code(), "datsim-A", 8, 0));
                int ia = c.in.getInt();
                assertEquals(DatReturn.SUCCESS, c.call(Request.HANDLE_TYPE.code(), ia));
                long t0 = c.now;
                assertEquals(DatReturn.SUCCESS, c.call(Request.HANDLE_TYPE.code(), ia));
                assertEquals(100_000, c.now - t0, "a call costs cpu.call_overhead (100 ns) of simulated time");
                long t1 = c.now;
                c.cpuNs = 5_000; // the program computed for 5 us of thread CPU time since the last reply
                assertEquals(DatReturn.SUCCESS, c.call(Request.HANDLE_TYPE.code(), ia));
                assertEquals(100_000 + Math.round(scale * 5_000_000), c.now - t1,
                        "the CPU time between calls counts times --cpu-scale (not at all by default)");
            }
            t.join(20_000);
            assertEquals(0, rc[0]);
        }
    }

    @Test
    void serveRecordWritesAScenarioWhoseRunHasTheLiveTrace() throws Exception {
        Path sock = dir.resolve("r.sock");
        Path recording = dir.resolve("recorded.json");
        Path fabric = fabric();
        BridgeServer server = new BridgeServer(ScenarioLoader.load(fabric), sock, 2000, 1,
                new PrintWriter(new StringWriter()));
        server.record(new com.fasterxml.jackson.databind.ObjectMapper().readTree(fabric.toFile()), recording);
        int[] rc = {-1};
        Thread t = serve(server, rc);
        while (!Files.exists(sock)) {
            Thread.sleep(10);
        }
        try (Client c = new Client(sock)) {
            assertEquals(DatReturn.SUCCESS, c.call(Protocol.C_HELLO, "A", 1, 0));
            assertEquals(DatReturn.SUCCESS, c.call(Request.IA_OPEN.code(), "datsim-A", 8, 0));
            int ia = c.in.getInt();
            assertEquals(DatReturn.SUCCESS, c.call(Request.PZ_CREATE.code(), ia));
            int pz = c.in.getInt();
            assertEquals(DatReturn.SUCCESS, c.call(Request.LMR_CREATE.code(), ia, 0x10000L, 4096L, pz, 0x33));
            int lmr = c.in.getInt();
            assertEquals(DatReturn.INVALID_STATE, DatReturn.type(c.call(Request.PZ_FREE.code(), pz)));
            assertEquals(DatReturn.SUCCESS, c.call(Request.EVD_CREATE.code(), ia, 8, 0, 0x1));
            int evd = c.in.getInt();
            assertEquals(DatReturn.QUEUE_EMPTY, DatReturn.type(c.call(Request.EVD_DEQUEUE.code(), evd)));
            assertEquals(DatReturn.TIMEOUT_EXPIRED, DatReturn.type(c.call(Request.EVD_WAIT.code(), evd, 1000L, 1)));
            assertEquals(DatReturn.SUCCESS, c.call(Request.HANDLE_TYPE.code(), lmr));
            assertEquals(DatReturn.SUCCESS, c.call(Request.LMR_FREE.code(), lmr));
            assertEquals(DatReturn.SUCCESS, c.call(Request.PZ_FREE.code(), pz));
        }
        t.join(20_000);
        assertEquals(0, rc[0]);
        String text = Files.readString(recording);
        assertTrue(text.contains("\"out\" : \"lmr1\"") && text.contains("\"address\" : 65536"), text);
        assertTrue(text.contains("\"ret\" : \"DAT_INVALID_STATE\""), "an error returned is expected: " + text);
        Path replay = dir.resolve("replay");
        StringWriter runOut = new StringWriter();
        int run = org.datsim.scenario.cli.DatsimCli.execute(
                new String[] {"run", recording.toString(), "--out", replay.toString()}, new PrintWriter(runOut, true),
                new PrintWriter(runOut, true));
        assertEquals(0, run, runOut + "\n" + text);
        assertEquals(DaplRecordIntegrationTest.comparable(dir.resolve("out/events.jsonl")),
                DaplRecordIntegrationTest.comparable(replay.resolve("events.jsonl")),
                "the replay's trace is the live run's");
    }
}

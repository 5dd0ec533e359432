package org.datsim.scenario.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.datsim.scenario.cli.DatsimCli;
import org.junit.jupiter.api.Test;

/**
 * {@code datsim perftest}: perftest's table format, statistics, -a sizes, iteration counts and -b.
 *
 * <p>The stored sample {@code perftest-format-sample.txt} was printed by a C program compiled with gcc from
 * perftest's own format strings (linux-rdma/perftest, src/perftest_parameters.h at commit 00b55b6: RESULT_LINE,
 * RESULT_FMT_LAT, RESULT_FMT_G, REPORT_FMT_LAT, REPORT_FMT, REPORT_FMT_EXT; RESULT_FMT_LAT printed with "%s" as
 * src/read_lat.c does) with the values of the rows below, so it is byte for byte what perftest prints for them,
 * C's rounding included.
 */
class PerftestRunTest {

    private static List<String> sample() throws IOException {
        try (InputStream in = PerftestRunTest.class.getResourceAsStream("/perftest-format-sample.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @Test
    void rowsAndColumnLinesAreByteForBytePerftests() throws IOException {
        List<String> s = sample();
        assertEquals(PerftestRun.RESULT_LINE, s.get(0));
        assertEquals(PerftestRun.RESULT_FMT_LAT, s.get(1));
        assertEquals(s.get(2), PerftestRun.format(new PerftestRun.LatRow(2, 1000, 1.62, 1.75, 1.64, 1.65, 0, 1.70,
                1.75)));
        // 1235.125 is exact in binary: C rounds it to even (1235.12), Java's Formatter would print 1235.13
        assertEquals(s.get(3), PerftestRun.format(new PerftestRun.LatRow(8388608, 1000, 1234.5, 1240.25, 1235.125,
                1236.0, 1.0, 1239.0, 1240.25)));
        assertEquals(PerftestRun.RESULT_LINE, s.get(4));
        assertEquals(PerftestRun.RESULT_FMT_G, s.get(5));
        assertEquals(s.get(6), PerftestRun.format(new PerftestRun.BwRow(65536, 5000, 96.42, 96.41, 0.183901), true));
        assertEquals(s.get(7), PerftestRun.format(new PerftestRun.BwRow(8388608, 5000, 96.59, 96.58, 0.001439),
                true));
        assertEquals(s.get(8), PerftestRun.format(new PerftestRun.BwRow(2, 5000, 0.221, 0.0876, 13.849919), true),
                "Gb/s averages under 0.1 use REPORT_FMT_EXT");
        assertEquals(PerftestRun.RESULT_LINE, s.get(9));
    }

    @Test
    void allSizesAreTwoToEightMiB() {
        List<Long> a = PerftestRun.allSizes();
        assertEquals(23, a.size());
        assertEquals(2L, a.get(0));
        assertEquals(8388608L, a.get(22));
        for (int i = 1; i < a.size(); i++) {
            assertEquals(2 * a.get(i - 1), a.get(i));
        }
    }

    @Test
    void defaultIterationsAreperftests() {
        assertEquals(5000, PerftestRun.Test.WRITE_BW.defaultIters());
        for (PerftestRun.Test t : List.of(PerftestRun.Test.READ_BW, PerftestRun.Test.SEND_BW,
                PerftestRun.Test.READ_LAT, PerftestRun.Test.WRITE_LAT, PerftestRun.Test.SEND_LAT)) {
            assertEquals(1000, t.defaultIters(), t.command);
        }
        assertEquals(128, PerftestRun.Test.WRITE_BW.defaultTxDepth());
        assertEquals(1, PerftestRun.Test.READ_LAT.defaultTxDepth());
    }

    @Test
    void latencyStatisticsArePerftests() {
        // 12 samples (ps), ping-pong (halved): the two largest are left out, 10 remain
        long[] ps = {2000, 2200, 2400, 2600, 2800, 3000, 3200, 3400, 3600, 3800, 90000, 99000};
        PerftestRun.LatRow r = PerftestRun.latRow(8, 13, ps, 2);
        assertEquals(0.001, r.tMin(), 1e-12);
        // t_max is delta[measure_cnt] after the tail is subtracted: the smaller of the two samples left out
        assertEquals(0.045, r.tMax(), 1e-12);
        // get_median(10): (10 - 1) % 2 != 0, so the mean of elements 5 and 4
        assertEquals((3000 + 2800) / 2 / 2e6, r.tTypical(), 1e-12);
        assertEquals(0.00145, r.tAvg(), 1e-12);
        assertEquals(0, r.tStdev(), 0, "perftest truncates each deviation to whole microseconds");
        // ceil(10 * 0.99) = 10: element 10 of the sorted samples, one of the tail
        assertEquals(0.045, r.p99(), 1e-12);
        assertEquals(0.045, r.p999(), 1e-12);
        assertEquals(1.0, PerftestRun.latRow(8, 13, ps, 1).tMin() * 500, 1e-9, "Read is not halved");
    }

    @Test
    void bandwidthPeakAndAverageArePerftests() {
        // 4 messages of 1000 B, cq_mod 2; posted at 0, 10, 20, 30 ns; completions reaped at 100 ns (messages 0-1)
        // and 120 ns (2-3)
        long[] posted = {0, 10_000, 20_000, 30_000};
        long[] completed = {100_000, 100_000, 120_000, 120_000};
        PerftestRun.BwRow r = PerftestRun.bwRow(1000, posted, completed, 2, true);
        assertEquals(4 * 1000 * 8 / 120.0, r.avg(), 1e-9, "average: first post to last completion");
        assertEquals(4 / 120e-9 / 1e6, r.msgRate(), 1e-9);
        // windows (i, j) with j at moderated completions (1, 3): (0,1) 50 ns, (0,3) 30 ns, (1,1) 90, (1,3) 36.7,
        // (2,3) 50, (3,3) 90 per message: the best is 30 ns
        assertEquals(1000 * 8 / 30.0, r.peak(), 1e-9);
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = DatsimCli.execute(args, new PrintWriter(out), new PrintWriter(err));
        assertEquals(0, rc, err.toString());
        return out.toString();
    }

    private static String[] row(String output) {
        List<String> lines = output.lines().toList();
        return lines.get(lines.size() - 2).trim().split("\\s+");
    }

    @Test
    void bandwidthOutputHasPerftestsColumnsAndIterations() throws IOException {
        String out = run("perftest", "ib_write_bw", "-s", "4096", "-n", "300", "--report_gbits");
        List<String> lines = out.lines().toList();
        assertTrue(lines.contains("                    RDMA_Write BW Test"), out);
        assertTrue(lines.contains(" TX depth        : 128"), out);
        assertTrue(lines.contains(" Mtu             : 4096[B]"), out);
        assertTrue(lines.contains(PerftestRun.RESULT_FMT_G), out);
        String[] r = row(out);
        assertEquals(sample().get(6).trim().split("\\s+").length, r.length, "the columns of perftest's row");
        assertEquals("4096", r[0]);
        assertEquals("300", r[1]);
        double avg = Double.parseDouble(r[3]);
        assertTrue(avg > 50 && avg < 100, "a 4 KiB Write stream on EDR: " + avg + " Gb/s");
    }

    /** A real client command line (-d mlx5_0 -i 1 -x 3 -p 18515 SERVER) runs; the hardware flags are said ignored. */
    @Test
    void hardwareFlagsAreAcceptedAndReportedAsIgnored() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = DatsimCli.execute(new String[] {"perftest", "ib_read_lat", "-d", "mlx5_0", "-i", "1", "-x", "3",
            "-p", "18515", "-n", "20", "192.168.1.2"}, new PrintWriter(out), new PrintWriter(err));
        assertEquals(0, rc, err.toString());
        assertTrue(err.toString().contains("ignored (they pick hardware or a TCP port; the simulated pair has one"
                + " device, port and address): -d mlx5_0, -i 1, -x 3, -p 18515"), err.toString());
        assertTrue(out.toString().contains("RDMA_Read Latency Test"), out.toString());
        assertTrue(!out.toString().contains("ignored"), "the table stays perftest's");
    }

    /** -D is simulated (PerftestDurationTest); an endless run is refused with one line naming -D and -n. */
    @Test
    void anEndlessRunIsRefusedWithAMessageNamingADurationOrTheIterations() {
        for (String[] args : new String[][] {{"perftest", "ib_send_lat", "--run_infinitely"},
            {"perftest", "ib_write_bw", "--run_infinitely", "-D", "5"}}) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int rc = DatsimCli.execute(args, new PrintWriter(out), new PrintWriter(err));
            assertEquals(DatsimCli.EXIT_INVALID, rc, String.join(" ", args));
            assertEquals("", out.toString());
            assertTrue(err.toString().contains("a simulation needs an end") && err.toString().contains("-D SECONDS")
                    && err.toString().contains("-n"), err.toString());
            assertEquals(1, err.toString().lines().count(), "one line: " + err);
        }
    }

    /** ib_atomic_lat and ib_atomic_bw: Fetch and Add of 8 bytes, a full round trip each, like an 8-byte Read. */
    @Test
    void atomicTestsRunFetchAndAddOfEightBytes() {
        String lat = run("perftest", "ib_atomic_lat", "-n", "20");
        assertTrue(lat.contains("Atomic Latency Test") && lat.contains(" Atomic Type     : FETCH_AND_ADD"), lat);
        String[] r = row(lat);
        assertEquals("8", r[0]);
        assertEquals("20", r[1]);
        double atomic = Double.parseDouble(r[4]);
        double read = Double.parseDouble(row(run("perftest", "ib_read_lat", "-s", "8", "-n", "20"))[4]);
        assertEquals(read, atomic, 0.25 * read, "an atomic is a round trip as a Read is: " + atomic + " vs " + read);
        String bw = run("perftest", "ib_atomic_bw", "-n", "200");
        assertTrue(bw.contains("Atomic BW Test"), bw);
        assertEquals("8", row(bw)[0]);
        StringWriter err = new StringWriter();
        assertEquals(DatsimCli.EXIT_INVALID, DatsimCli.execute(new String[] {"perftest", "ib_atomic_bw", "-s", "64"},
                new PrintWriter(new StringWriter()), new PrintWriter(err)));
        assertTrue(err.toString().contains("-s 64: ib_atomic_bw has one size, 8 bytes"), err.toString());
    }

    @Test
    void latencyOutputHasPerftestsColumns() throws IOException {
        String out = run("perftest", "ib_read_lat", "-n", "20", "-m", "1024");
        assertTrue(out.contains("RDMA_Read Latency Test"), out);
        assertTrue(out.contains(" Mtu             : 1024[B]"), out);
        assertTrue(out.contains(PerftestRun.RESULT_FMT_LAT), out);
        String[] r = row(out);
        assertEquals(sample().get(2).trim().split("\\s+").length, r.length);
        assertEquals("2", r[0]);
        assertEquals("20", r[1]);
    }

    @Test
    void bidirectionalDoublesASmallMessageRate() {
        double one = Double.parseDouble(row(run("perftest", "ib_write_bw", "-s", "64", "-n", "400"))[4]);
        String out = run("perftest", "ib_write_bw", "-s", "64", "-n", "400", "-b");
        assertTrue(out.contains("RDMA_Write Bidirectional BW Test"), out);
        double both = Double.parseDouble(row(out)[4]);
        assertEquals(2 * one, both, 0.05 * 2 * one, "each side posts from its own CPU: " + one + " vs " + both);
    }

    @Test
    void sendBandwidthWithSeveralQpsKeepsEveryQpSupplied() {
        String[] r = row(run("perftest", "ib_send_bw", "-q", "2", "-n", "300", "-s", "4096", "--report_gbits"));
        assertEquals("600", r[1], "#iterations counts every QP's");
        double avg = Double.parseDouble(r[3]);
        assertTrue(avg > 80 && avg < 100, "two QPs of 4 KiB Sends fill EDR: " + avg + " Gb/s");
    }

    @Test
    void aSwitchAddsLatency() {
        double b2b = Double.parseDouble(row(run("perftest", "ib_send_lat", "-n", "20"))[4]);
        double sw = Double.parseDouble(row(run("perftest", "ib_send_lat", "-n", "20", "--switches", "1"))[4]);
        assertTrue(sw > b2b, b2b + " vs " + sw);
    }

    @Test
    void unknownFlagsAndBadValuesExitTwo() {
        for (String[] args : List.of(new String[] {"perftest", "ib_write_bw", "-R"},
                new String[] {"perftest", "ib_write_bw", "-m", "1500"},
                new String[] {"perftest", "ib_read_lat", "-b"},
                new String[] {"perftest", "ib_write_bandwidth"})) {
            StringWriter err = new StringWriter();
            assertEquals(2, DatsimCli.execute(args, new PrintWriter(new StringWriter()), new PrintWriter(err)),
                    String.join(" ", args));
            assertTrue(err.toString().startsWith("datsim"), err.toString());
        }
    }
}

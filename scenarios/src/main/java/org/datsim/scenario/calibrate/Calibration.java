package org.datsim.scenario.calibrate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSink;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.load.ScenarioException;
import org.datsim.scenario.load.ScenarioLoader;
import org.datsim.scenario.run.FileTrees;
import org.datsim.scenario.run.RunResultSummary;
import org.datsim.scenario.run.ScenarioRunner;

/**
 * perftest-style measurements of a fabric preset, each a generated scenario (two hosts back to back, one RC
 * connection) run through the whole model, DAT provider and consumer CPU costs included:
 *
 * <ul>
 *   <li>{@code ib_send_lat}: ping-pong of Sends; each side waits for its receive, reposts it and sends back. The
 *       latency is half the round trip, as perftest reports it.</li>
 *   <li>{@code ib_write_lat}: perftest ping-pongs RDMA Writes, each side polling its buffer's last byte. One half
 *       round trip is the post, the time from the post to the data's placement in the peer's memory, and the
 *       peer's poll that sees it ({@code cpu.poll_overhead}).</li>
 *   <li>{@code ib_read_lat}: one RDMA Read at a time, each waited for; the latency is the time per Read (perftest
 *       does not halve it).</li>
 *   <li>{@code ib_write_bw}: RDMA Writes kept 128 deep (perftest's tx depth); the bandwidth is the payload bits
 *       from the first post to the last completion.</li>
 * </ul>
 *
 * Every figure comes from the run's trace, so it is exactly what the model does.
 */
public final class Calibration {

    /** The perftest tests modelled. */
    public static final List<String> TESTS = Stream.of(Perftest.values()).map(t -> t.name).toList();

    /** Message sizes of the curves: 2 B to 1 MiB, powers of two. */
    public static final List<Long> SIZES;

    static {
        List<Long> s = new ArrayList<>();
        for (long b = 2; b <= (1L << 20); b *= 2) {
            s.add(b);
        }
        SIZES = List.copyOf(s);
    }

    /** Latency iterations per size (the first is not timed). */
    static final int LAT_ITERS = 8;
    /** Writes kept outstanding by ib_write_bw. */
    static final int BW_DEPTH = 128;

    /** A published target: a range of the measured figure and the tolerance around it. */
    public record Target(double low, double high, double tolerance) {
        /** Returns true if the model's figure is within the tolerance of the range. */
        public boolean accepts(double model) {
            return model >= low * (1 - tolerance) && model <= high * (1 + tolerance);
        }

        /** Returns the range as text, for example "0.81-0.83" or "2.25". */
        public String text() {
            return low == high ? fmt(low) : fmt(low) + "-" + fmt(high);
        }
    }

    /** One point of a curve. */
    public record Point(String test, long size, double value, String unit, Target target) {
    }

    /** Each perftest test: its name, the scenario of a point and the figure read from that scenario's run. */
    private enum Perftest {
        SEND_LAT("ib_send_lat", "us") {
            @Override
            String scenario(String preset, long size, String extraParams, int switches) {
                return sendLat(preset, size, extraParams, switches);
            }

            @Override
            double figure(Scenario s, Collector c, long size) {
                return c.period("c", "dat_ep_post_send") / 2 / 1e6;
            }
        },
        WRITE_LAT("ib_write_lat", "us") {
            @Override
            String scenario(String preset, long size, String extraParams, int switches) {
                return simple(preset, size, extraParams, switches, "dat_ep_post_rdma_write", LAT_ITERS, 1);
            }

            @Override
            double figure(Scenario s, Collector c, long size) {
                long post = s.params().get(org.datsim.fabric.FabricParams.CPU_POST_OVERHEAD);
                long poll = s.params().get(org.datsim.fabric.FabricParams.CPU_POLL_OVERHEAD);
                return (post + c.postToPlace() + poll) / 1e6;
            }
        },
        READ_LAT("ib_read_lat", "us") {
            @Override
            String scenario(String preset, long size, String extraParams, int switches) {
                return simple(preset, size, extraParams, switches, "dat_ep_post_rdma_read", LAT_ITERS, 1);
            }

            @Override
            double figure(Scenario s, Collector c, long size) {
                return c.period("c", "dat_ep_post_rdma_read") / 1e6;
            }
        },
        WRITE_BW("ib_write_bw", "Gb/s") {
            @Override
            String scenario(String preset, long size, String extraParams, int switches) {
                // perftest's bandwidth tests post nothing inline unless -I says so (hca.max_inline is the inline size
                // of its latency tests): the HCA fetches every WQE and payload by DMA.
                String extra = extraParams.contains("\"hca.max_inline\"") ? extraParams
                        : "\"hca.max_inline\": \"0B\"" + (extraParams.isEmpty() ? "" : ", " + extraParams);
                return simple(preset, size, extra, switches, "dat_ep_post_rdma_write", writes(size), BW_DEPTH);
            }

            @Override
            double figure(Scenario s, Collector c, long size) {
                double ps = c.lastComplete - c.first("c", "dat_ep_post_rdma_write");
                return writes(size) * size * 8 / ps * 1000;
            }

            /** The Writes of a point: 16 MiB in all, at least 200 and at most 2000. */
            private long writes(long size) {
                return Math.max(200, Math.min(2000, (16L << 20) / size));
            }
        };

        final String name;
        final String unit;

        Perftest(String name, String unit) {
            this.name = name;
            this.unit = unit;
        }

        /** The scenario of one point, as JSON text. */
        abstract String scenario(String preset, long size, String extraParams, int switches);

        /** The point's figure, in {@link #unit}, from its scenario and the times its run's trace gave. */
        abstract double figure(Scenario s, Collector c, long size);

        static Perftest named(String test) {
            for (Perftest t : values()) {
                if (t.name.equals(test)) {
                    return t;
                }
            }
            throw new IllegalArgumentException("unknown test " + test);
        }
    }

    private Calibration() {
    }

    /**
     * Returns the published target of a point, or null (docs/calibration.md gives the sources):
     *
     * <ul>
     *   <li>{@code ib-edr}: ConnectX-4 EDR back to back, perftest medians; {@code ib_send_lat} RC at 32 B, 1 KiB,
     *       4 KiB and 32 KiB within 5%, the peak of {@code ib_write_bw} within 2%.</li>
     *   <li>{@code roce-100g}: ConnectX-5 RoCEv2 at 100 GbE back to back, perftest median ("typical");
     *       {@code ib_send_lat} at 8 B within 5%.</li>
     * </ul>
     *
     * {@code ib-hdr} and {@code ib-ndr} have none: no published perftest figures were found for them.
     *
     * @param preset the preset
     * @param test the perftest test
     * @param size the message size in bytes, or -1 for the peak of a bandwidth curve
     * @return the target, or null if none is published
     */
    public static Target target(String preset, String test, long size) {
        if ("roce-100g".equals(preset)) {
            return test.equals("ib_send_lat") && size == 8 ? new Target(0.92, 0.92, 0.05) : null;
        }
        if (!"ib-edr".equals(preset)) {
            return null;
        }
        if (test.equals("ib_send_lat")) {
            if (size == 32) {
                return new Target(0.81, 0.83, 0.05);
            } else if (size == 1024) {
                return new Target(1.52, 1.61, 0.05);
            } else if (size == 4096) {
                return new Target(2.25, 2.25, 0.05);
            } else if (size == 32768) {
                return new Target(4.57, 4.57, 0.05);
            }
        }
        if (test.equals("ib_write_bw") && size < 0) {
            return new Target(96.6, 96.6, 0.02);
        }
        return null;
    }

    /**
     * Measures one point.
     *
     * @param preset the fabric preset
     * @param test one of {@link #TESTS}
     * @param size the message size in bytes
     * @param extraParams more parameter overrides as a JSON object body (for example {@code "\"hca.mtu\": \"2KiB\""}),
     *     or empty
     * @return latency in microseconds or bandwidth in Gb/s
     */
    public static Point measure(String preset, String test, long size, String extraParams) {
        return measure(preset, test, size, extraParams, 0);
    }

    /**
     * Measures one point with switches between the two hosts.
     *
     * @param preset the fabric preset
     * @param test one of {@link #TESTS}
     * @param size the message size in bytes
     * @param extraParams more parameter overrides as a JSON object body, or empty
     * @param switches the switches in a chain between the hosts (0: back to back)
     * @return latency in microseconds or bandwidth in Gb/s; the target is that of back to back, or null with switches
     */
    public static Point measure(String preset, String test, long size, String extraParams, int switches) {
        Perftest t = Perftest.named(test);
        Collector c = new Collector();
        Scenario s = run(t.scenario(preset, size, extraParams, switches), c);
        return new Point(test, size, t.figure(s, c, size), t.unit, switches == 0 ? target(preset, test, size) : null);
    }

    /**
     * Measures the curves of every test over {@link #SIZES}, then the peak of each bandwidth curve (size -1).
     *
     * @param preset the preset
     * @param tests the tests to run
     * @param sizes the sizes
     * @param extraParams more parameter overrides as a JSON object body, or empty
     * @return the points in order
     * @throws IllegalArgumentException if an override is invalid (the message says why)
     */
    public static List<Point> curves(String preset, List<String> tests, List<Long> sizes, String extraParams) {
        List<Point> out = new ArrayList<>();
        for (String t : tests) {
            double peak = 0;
            for (long size : sizes) {
                Point p = measure(preset, t, size, extraParams);
                out.add(p);
                peak = Math.max(peak, p.value());
            }
            if (t.endsWith("_bw")) {
                out.add(new Point(t, -1, peak, "Gb/s", target(preset, t, -1)));
            }
        }
        return out;
    }

    /**
     * Returns the scenario a point runs, as JSON text (for {@code datsim calibrate --emit}).
     *
     * @param preset the preset
     * @param test one of {@link #TESTS}
     * @param size the message size in bytes
     * @return the scenario
     */
    public static String scenarioJson(String preset, String test, long size) {
        return Perftest.named(test).scenario(preset, size, "", 0);
    }

    /** Formats a figure with three significant-ish digits, the same on every locale. */
    public static String fmt(double v) {
        return String.format(java.util.Locale.ROOT, v >= 100 ? "%.1f" : v >= 10 ? "%.2f" : "%.3f", v);
    }

    // ------------------------------------------------------------------ scenarios

    /** Two hosts, A and B, back to back or through a chain of switches S1..Sn. */
    private static String fabric(String preset, String extraParams, int switches) {
        StringBuilder links = new StringBuilder();
        List<String> names = new ArrayList<>();
        String prev = "A";
        for (int i = 1; i <= switches; i++) {
            String sw = "S" + i;
            names.add("\"" + sw + "\"");
            links.append("{\"a\": \"").append(prev).append("\", \"b\": \"").append(sw).append("\"}, ");
            prev = sw;
        }
        links.append("{\"a\": \"").append(prev).append("\", \"b\": \"B\"}");
        return "{\"preset\": \"" + preset + "\", \"hosts\": [\"A\", \"B\"]"
                + (switches > 0 ? ", \"switches\": [" + String.join(", ", names) + "]" : "")
                + ", \"links\": [" + links + "]"
                + (extraParams.isEmpty() ? "" : ", \"params\": {" + extraParams + "}") + "}";
    }

    private static List<String> setup(long size, boolean server) {
        List<String> c = new ArrayList<>();
        c.add("{\"call\": \"dat_ia_open\", \"out\": \"ia\"}");
        c.add("{\"call\": \"dat_pz_create\", \"ia\": \"$ia\", \"out\": \"pz\"}");
        c.add("{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 16, \"evd_flags\": \"DAT_EVD_CR_FLAG\","
                + " \"out\": \"cr_evd\"}");
        c.add("{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 16,"
                + " \"evd_flags\": \"DAT_EVD_CONNECTION_FLAG\", \"out\": \"conn_evd\"}");
        c.add("{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 4096,"
                + " \"evd_flags\": \"DAT_EVD_DTO_FLAG\", \"out\": \"req_evd\"}");
        c.add("{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 256,"
                + " \"evd_flags\": \"DAT_EVD_DTO_FLAG\", \"out\": \"recv_evd\"}");
        c.add("{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"length\": " + Math.max(64, size)
                + ", \"out\": \"buf\"}");
        c.add("{\"call\": \"dat_ep_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"recv_evd\": \"$recv_evd\","
                + " \"request_evd\": \"$req_evd\", \"connect_evd\": \"$conn_evd\", \"ep_attr\": {\"max_request_dtos\": "
                + (BW_DEPTH + 8) + "}, \"out\": \"ep\"}");
        return c;
    }

    private static String recv(long size) {
        return "{\"call\": \"dat_ep_post_recv\", \"ep\": \"$ep\", \"local_iov\": " + iov(size) + "}";
    }

    private static String iov(long size) {
        return "[{\"lmr\": \"$buf\", \"offset\": 0, \"length\": " + size + "}]";
    }

    private static String waitOn(String evd) {
        return "{\"call\": \"dat_evd_wait\", \"evd\": \"$" + evd + "\", \"expect\": {\"status\": \"DAT_DTO_SUCCESS\"}}";
    }

    private static void accept(List<String> c) {
        c.add("{\"call\": \"dat_psp_create\", \"ia\": \"$ia\", \"conn_qual\": 4791, \"evd\": \"$cr_evd\", \"out\":"
                + " \"psp\"}");
        c.add("{\"call\": \"dat_evd_wait\", \"evd\": \"$cr_evd\", \"out\": \"req\"}");
        c.add("{\"call\": \"dat_cr_accept\", \"cr\": \"$req.cr\", \"ep\": \"$ep\"}");
        c.add("{\"call\": \"dat_evd_wait\", \"evd\": \"$conn_evd\", \"expect\": {\"event\":"
                + " \"DAT_CONNECTION_EVENT_ESTABLISHED\"}}");
    }

    private static void connect(List<String> c) {
        c.add("{\"call\": \"dat_ep_connect\", \"ep\": \"$ep\", \"remote_ia_address\": \"B\", \"remote_conn_qual\":"
                + " 4791, \"timeout\": 1000000}");
        c.add("{\"call\": \"dat_evd_wait\", \"evd\": \"$conn_evd\", \"expect\": {\"event\":"
                + " \"DAT_CONNECTION_EVENT_ESTABLISHED\"}}");
    }

    private static String repeat(long n, List<String> calls) {
        return "{\"repeat\": " + n + ", \"calls\": [" + String.join(", ", calls) + "]}";
    }

    private static String scenario(String name, String fabric, List<String> server, List<String> client) {
        return "{\"scenario\": \"" + name + "\", \"fabric\": " + fabric + ", \"processes\": ["
                + "{\"name\": \"s\", \"host\": \"B\", \"calls\": [" + String.join(",\n", server) + "]},"
                + "{\"name\": \"c\", \"host\": \"A\", \"start\": \"5us\", \"calls\": [" + String.join(",\n", client)
                + "]}]}";
    }

    /** ib_send_lat: both sides wait for a receive, repost it and send back. */
    static String sendLat(String preset, long size, String extraParams, int switches) {
        String send = "{\"call\": \"dat_ep_post_send\", \"ep\": \"$ep\", \"local_iov\": " + iov(size) + "}";
        List<String> s = setup(size, true);
        s.add(recv(size));
        accept(s);
        s.add(repeat(LAT_ITERS, List.of(waitOn("recv_evd"), recv(size), send)));
        List<String> c = setup(size, false);
        c.add(recv(size));
        connect(c);
        c.add(repeat(LAT_ITERS, List.of(send, waitOn("recv_evd"), recv(size))));
        return scenario("ib_send_lat", fabric(preset, extraParams, switches), s, c);
    }

    /** One-sided tests: the client keeps {@code depth} RDMA operations of {@code size} outstanding, n in all. */
    static String simple(String preset, long size, String extraParams, int switches, String call, long n,
            int depth) {
        String post = "{\"call\": \"" + call + "\", \"ep\": \"$ep\", \"local_iov\": " + iov(size)
                + ", \"remote_iov\": {\"rmr_context\": \"$s/buf.rmr_context\", \"address\": \"$s/buf.address\","
                + " \"length\": " + size + "}}";
        List<String> s = setup(size, true);
        accept(s);
        List<String> c = setup(size, false);
        connect(c);
        long first = Math.min(depth, n);
        c.add(repeat(first, List.of(post)));
        if (n > first) {
            c.add(repeat(n - first, List.of(waitOn("req_evd"), post)));
        }
        c.add(repeat(first, List.of(waitOn("req_evd"))));
        return scenario(call.substring(12), fabric(preset, extraParams, switches), s, c);
    }

    static Scenario run(String json, TraceSink<TraceEvent> sink) {
        Scenario s;
        try {
            s = ScenarioLoader.parse("calibration.json", json);
        } catch (ScenarioException e) {
            throw new IllegalArgumentException(String.join("; ", e.problems()));
        }
        Path dir = null;
        try {
            dir = Files.createTempDirectory("datsim-calibrate");
            RunResultSummary r = new ScenarioRunner(s).perfetto(false).eventsJsonl(false).run(dir, List.of(sink));
            if (r.exitCode() != 0) {
                throw new IllegalStateException("calibration run failed: " + r.lines());
            }
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) {
                try {
                    FileTrees.delete(dir);
                } catch (IOException e) {
                    // a temporary directory left behind is harmless
                }
            }
        }
    }

    /** Collects the times a measurement needs from the trace. */
    private static final class Collector implements TraceSink<TraceEvent> {
        final Map<String, List<Long>> calls = new LinkedHashMap<>();
        final Map<Long, Long> posts = new LinkedHashMap<>();
        final List<Long> postToPlace = new ArrayList<>();
        long lastComplete;

        @Override
        public void accept(TraceEvent e) {
            switch (e.kind()) {
                case TraceKind.CALL:
                    calls.computeIfAbsent(e.attrValue(TraceKey.PROCESS) + "/" + e.call(), k -> new ArrayList<>())
                            .add(e.tPs());
                    break;
                case TraceEvent.POST:
                    posts.put(e.op(), e.tPs());
                    break;
                case TraceEvent.PLACE:
                    Long p = posts.get(e.op());
                    if (p != null) {
                        postToPlace.add(e.tPs() - p);
                    }
                    break;
                case TraceEvent.COMPLETE:
                    if ("A".equals(e.host())) {
                        lastComplete = e.tPs();
                    }
                    break;
                default:
                    break;
            }
        }

        List<Long> times(String process, String call) {
            List<Long> t = calls.get(process + "/" + call);
            if (t == null || t.isEmpty()) {
                throw new IllegalStateException("no " + call + " by " + process + " in the calibration trace");
            }
            return t;
        }

        long first(String process, String call) {
            return times(process, call).get(0);
        }

        /** The mean time between the first and the last of a process's calls of a kind, per call. */
        double period(String process, String call) {
            List<Long> t = times(process, call);
            return (double) (t.get(t.size() - 1) - t.get(0)) / (t.size() - 1);
        }

        /** The mean post-to-place time of every operation after the first. */
        long postToPlace() {
            long sum = 0;
            for (int i = 1; i < postToPlace.size(); i++) {
                sum += postToPlace.get(i);
            }
            return sum / (postToPlace.size() - 1);
        }
    }
}

package org.datsim.scenario.calibrate;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.datsim.scenario.calibrate.PerftestRun.Options;
import org.datsim.scenario.calibrate.PerftestRun.Test;

/**
 * The scenario of one perftest size: two hosts (and a chain of switches), the server and the client processes with
 * the DAT calls perftest's loop makes (see {@link PerftestRun} for what is modelled).
 */
final class PerftestScenario {

    /** perftest's DEF_RX_SEND: receives kept posted by the Send bandwidth server. */
    static final int DEF_RX_SEND = PerftestRun.DEF_RX_SEND;
    /** perftest's MAX_OUT_READ_HERMON: outstanding Reads on ConnectX. */
    static final int OUT_READS = PerftestRun.OUT_READS;

    private PerftestScenario() {
    }

    /**
     * Returns the scenario of one size, as JSON text.
     *
     * @param o the options, resolved
     * @param size the message size
     * @return the scenario
     */
    static String json(Options o, long size) {
        if (o.timed() && o.all()) {
            throw new IllegalArgumentException("a timed run has one size");
        }
        StringBuilder procs = new StringBuilder();
        procs.append(process("s", "B", null, server(o, size, "c", 4791)));
        procs.append(",\n").append(process("c", "A", "5us", client(o, size, "s", "B", 4791)));
        if (o.bidirectional()) {
            procs.append(",\n").append(process("s2", "A", null, server(o, size, "c2", 4792)));
            procs.append(",\n").append(process("c2", "B", "5us", client(o, size, "s2", "A", 4792)));
        }
        // a timed run ends with its loops: no event limit, and a time limit far beyond the duration as the guard
        String limits = o.timed() ? ", \"limits\": {\"max_events\": " + Long.MAX_VALUE + ", \"max_time\": \""
                + org.datsim.core.time.SimTime.formatExact(2 * o.durationPs() + 10 * org.datsim.core.time.SimTime.S)
                + "\"}" : "";
        return "{\"scenario\": \"" + o.test().command + "\"" + limits + ", \"fabric\": " + fabric(o)
                + ", \"processes\": [" + procs + "]}";
    }


    private static String fabric(Options o) {
        StringBuilder sw = new StringBuilder();
        StringBuilder links = new StringBuilder();
        String prev = "A";
        for (int i = 1; i <= o.switches(); i++) {
            sw.append(i > 1 ? ", " : "").append("\"S").append(i).append('"');
            links.append("{\"a\": \"").append(prev).append("\", \"b\": \"S").append(i).append("\"}, ");
            prev = "S" + i;
        }
        links.append("{\"a\": \"").append(prev).append("\", \"b\": \"B\"}");
        List<String> params = new ArrayList<>();
        if (o.mtu() > 0) {
            params.add("\"hca.mtu\": \"" + o.mtu() + "B\"");
        }
        params.add("\"hca.max_inline\": \"" + o.inline() + "B\"");
        return "{\"preset\": \"" + o.preset() + "\", \"hosts\": [\"A\", \"B\"]"
                + (o.switches() > 0 ? ", \"switches\": [" + sw + "]" : "") + ", \"links\": [" + links + "]"
                + ", \"params\": {" + String.join(", ", params) + "}}";
    }

    private static String process(String name, String host, String start, List<String> calls) {
        return "{\"name\": \"" + name + "\", \"host\": \"" + host + "\""
                + (start == null ? "" : ", \"start\": \"" + start + "\"") + ", \"calls\": ["
                + String.join(",\n", calls) + "]}";
    }

    private static List<String> setup(Options o, long size) {
        int q = o.qps();
        List<String> c = new ArrayList<>();
        c.add("{\"call\": \"dat_ia_open\", \"out\": \"ia\"}");
        c.add("{\"call\": \"dat_pz_create\", \"ia\": \"$ia\", \"out\": \"pz\"}");
        c.add("{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 16,"
                + " \"evd_flags\": \"DAT_EVD_CR_FLAG\", \"out\": \"cr_evd\"}");
        c.add("{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": " + (16 + q)
                + ", \"evd_flags\": \"DAT_EVD_CONNECTION_FLAG\", \"out\": \"conn_evd\"}");
        c.add("{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": " + (4 * o.txDepth() * q + 16)
                + ", \"evd_flags\": \"DAT_EVD_DTO_FLAG\", \"out\": \"req_evd\"}");
        c.add("{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": " + (receivesPosted(o) * q + 16)
                + ", \"evd_flags\": \"DAT_EVD_DTO_FLAG\", \"out\": \"recv_evd\"}");
        c.add("{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"length\": " + Math.max(64, size)
                + (o.test().isAtomic() ? ", \"privileges\": \"DAT_MEM_PRIV_ALL_FLAG|DAT_IB_MEM_PRIV_REMOTE_ATOMIC\"" : "")
                + ", \"out\": \"buf\"}");
        for (int k = 0; k < q; k++) {
            c.add("{\"call\": \"dat_ep_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"recv_evd\": \"$recv_evd\","
                    + " \"request_evd\": \"$req_evd\", \"connect_evd\": \"$conn_evd\", \"ep_attr\": {"
                    + "\"max_request_dtos\": " + (2 * o.txDepth() + o.cqModAt(size) + 8) + ", \"max_recv_dtos\": "
                    + (Math.max(DEF_RX_SEND, receivesPosted(o)) + 8) + ", \"max_rdma_read_out\": " + OUT_READS
                    + ", \"max_rdma_read_in\": " + OUT_READS + "}, \"out\": \"ep" + k + "\"}");
        }
        return c;
    }

    private static String iov(long size) {
        return "[{\"lmr\": \"$buf\", \"offset\": 0, \"length\": " + size + "}]";
    }

    private static String recv(int ep, long size) {
        return "{\"call\": \"dat_ep_post_recv\", \"ep\": \"$ep" + ep + "\", \"local_iov\": " + iov(size) + "}";
    }

    private static String waitOn(String evd) {
        return "{\"call\": \"dat_evd_wait\", \"evd\": \"$" + evd + "\", \"expect\": {\"status\": \"DAT_DTO_SUCCESS\"}}";
    }

    private static String post(Test t, int ep, long size, String peer, boolean signalled) {
        String flags = signalled ? "" : ", \"completion_flags\": \"DAT_COMPLETION_SUPPRESS_FLAG\"";
        String remote = t.isSend() ? "" : ", \"remote_iov\": {\"rmr_context\": \"$" + peer + "/buf.rmr_context\","
                + " \"address\": \"$" + peer + "/buf.address\", \"length\": " + size + "}";
        String add = t.isAtomic() ? ", \"add_value\": 1" : "";
        return "{\"call\": \"" + t.call + "\", \"ep\": \"$ep" + ep + "\", \"local_iov\": " + iov(size) + remote + add
                + flags + "}";
    }

    /**
     * Receives the Send bandwidth server keeps posted per QP: perftest's rx depth (512, at most the iterations) with
     * one QP. With several QPs every receive is posted up front: a static scenario cannot repost on the QP whose
     * receive completed only while that QP still expects messages, and a repost on the wrong one leaves the other
     * short (RNR). With the receives all posted, no Send waits for one, as with perftest's server keeping up. A timed
     * run has no count to exceed: 512 per QP, each completion reposted on its QP.
     */
    static int receivesPosted(Options o) {
        if (o.timed()) {
            return DEF_RX_SEND;
        }
        return o.qps() == 1 ? Math.min(DEF_RX_SEND, o.iters()) : o.iters();
    }

    /** A timed run's loop bound: perftest's duration, from the moment the loop begins. */
    private static String bound(Options o) {
        return "\"" + org.datsim.core.time.SimTime.formatExact(o.durationPs()) + "\"";
    }

    private static String timed(Options o, List<String> calls) {
        return "{\"for\": " + bound(o) + ", \"calls\": [" + String.join(", ", calls) + "]}";
    }

    /** The client's step that ends just before its timed loop begins: the Send server's loop begins with it. */
    static final String LOOP_STARTS = "loop_starts";
    /** A timed ib_send_lat: how much longer than the client's the server's loop lasts (far above their skew). */
    static final long SERVER_SLACK_PS = org.datsim.core.time.SimTime.MS;
    /** A timed ib_send_lat: the server's wait for a question, longer than the slack (so it ends the server's loop). */
    static final long SERVER_WAIT_PS = 2 * org.datsim.core.time.SimTime.MS;

    /** The server: accepts the QPs; for Sends keeps receives posted (ib_send_lat: also sends back). */
    private static List<String> server(Options o, long size, String peer, int qual) {
        Test t = o.test();
        List<String> c = setup(o, size);
        int rx = t == Test.SEND_LAT ? 1 : t == Test.SEND_BW ? receivesPosted(o) : 0;
        c.add("{\"call\": \"dat_psp_create\", \"ia\": \"$ia\", \"conn_qual\": " + qual
                + ", \"evd\": \"$cr_evd\", \"out\": \"psp\"}");
        for (int k = 0; k < o.qps(); k++) {
            for (int r = 0; r < rx; r++) {
                c.add(recv(k, size));
            }
        }
        for (int k = 0; k < o.qps(); k++) {
            c.add("{\"call\": \"dat_evd_wait\", \"evd\": \"$cr_evd\", \"out\": \"req\"}");
            c.add("{\"call\": \"dat_cr_accept\", \"cr\": \"$req.cr\", \"ep\": \"$ep" + k + "\"}");
            c.add("{\"call\": \"dat_evd_wait\", \"evd\": \"$conn_evd\", \"expect\": {\"event\":"
                    + " \"DAT_CONNECTION_EVENT_ESTABLISHED\"}}");
        }
        if (o.timed() && t == Test.SEND_BW) {
            // perftest's server runs its own alarm; here its loop begins with the client's and lasts as long, and the
            // receives still posted take the client's last Sends
            c.add("{\"call\": \"sleep\", \"time\": \"0ns\", \"after\": \"" + peer + "/" + LOOP_STARTS + "\"}");
            c.add(timed(o, List.of("{\"call\": \"dat_evd_wait\", \"evd\": \"$recv_evd\", \"expect\": {\"status\":"
                    + " \"DAT_DTO_SUCCESS\"}, \"out\": \"rev\"}", "{\"call\": \"dat_ep_post_recv\", \"ep\": \"$rev.ep\","
                    + " \"local_iov\": " + iov(size) + "}")));
        } else if (o.timed() && t == Test.SEND_LAT) {
            // the server answers while the client asks: its loop begins with the client's and lasts a little longer
            // (SERVER_SLACK); a wait for a question that never comes times out (SERVER_WAIT, longer than the slack),
            // the answer it then sends takes the receive the client left posted, and the server's bound has passed
            c.add("{\"call\": \"sleep\", \"time\": \"0ns\", \"after\": \"" + peer + "/" + LOOP_STARTS + "\"}");
            c.add("{\"for\": \"" + org.datsim.core.time.SimTime.formatExact(o.durationPs() + SERVER_SLACK_PS)
                    + "\", \"calls\": [{\"call\": \"dat_evd_wait\", \"evd\": \"$recv_evd\", \"timeout\": \""
                    + org.datsim.core.time.SimTime.formatExact(SERVER_WAIT_PS) + "\", \"expect\": {\"ret\": {\"one_of\":"
                    + " [\"DAT_SUCCESS\", \"DAT_TIMEOUT_EXPIRED\"]}, \"if\": {\"ret\": \"DAT_SUCCESS\"}, \"then\":"
                    + " {\"status\": \"DAT_DTO_SUCCESS\"}}}, " + recv(0, size) + ", " + post(t, 0, size, peer, true) + ", "
                    + waitOn("req_evd") + "]}");
        } else if (t == Test.SEND_LAT) {
            c.add(repeat(o.iters(), List.of(waitOn("recv_evd"), recv(0, size), post(t, 0, size, peer, true),
                    waitOn("req_evd"))));
        } else if (t == Test.SEND_BW) {
            // each receive completion is reposted on the QP it came from
            long total = (long) o.iters() * o.qps();
            long reposts = total - (long) rx * o.qps();
            if (reposts > 0) {
                c.add(repeat(reposts, List.of("{\"call\": \"dat_evd_wait\", \"evd\": \"$recv_evd\", \"expect\":"
                        + " {\"status\": \"DAT_DTO_SUCCESS\"}, \"out\": \"rev\"}", "{\"call\": \"dat_ep_post_recv\","
                        + " \"ep\": \"$rev.ep\", \"local_iov\": " + iov(size) + "}")));
            }
            c.add(repeat((long) rx * o.qps(), List.of(waitOn("recv_evd"))));
        }
        return c;
    }

    /** The client: connects the QPs and runs perftest's loop. */
    private static List<String> client(Options o, long size, String peer, String peerHost, int qual) {
        Test t = o.test();
        List<String> c = setup(o, size);
        if (t == Test.SEND_LAT) {
            c.add(recv(0, size));
        }
        for (int k = 0; k < o.qps(); k++) {
            c.add("{\"call\": \"dat_ep_connect\", \"ep\": \"$ep" + k + "\", \"remote_ia_address\": \"" + peerHost
                    + "\", \"remote_conn_qual\": " + qual + ", \"timeout\": 1000000}");
            c.add("{\"call\": \"dat_evd_wait\", \"evd\": \"$conn_evd\", \"expect\": {\"event\":"
                    + " \"DAT_CONNECTION_EVENT_ESTABLISHED\"}}");
        }
        if (t == Test.SEND_LAT) {
            List<String> body = List.of(post(t, 0, size, peer, true), waitOn("req_evd"), waitOn("recv_evd"),
                    recv(0, size));
            if (o.timed()) {
                c.add("{\"call\": \"sleep\", \"time\": \"0ns\", \"name\": \"" + LOOP_STARTS + "\"}");
                c.add(timed(o, body));
            } else {
                c.add(repeat(o.iters(), body));
            }
        } else if (!t.bw) {
            List<String> body = List.of(post(t, 0, size, peer, true), waitOn("req_evd"));
            c.add(o.timed() ? timed(o, body) : repeat(o.iters(), body));
        } else if (o.timed()) {
            c.addAll(timedBwLoop(o, size, peer));
        } else {
            c.addAll(compress(bwLoop(o, size, peer)));
        }
        return c;
    }

    /**
     * perftest's run_iter_bw in duration mode for one client: the post loop of {@link #bwLoop} without a count (no
     * last post is signalled for being the last), as a prefix (filling the tx depth up to the steady state) and a
     * body that repeats while the loop's time bound has not passed (the body begins with a post, so the loop stops
     * at the first post at or after the bound), then the signalled completions still outstanding are reaped.
     * The body is found by running the post loop until its state after a reap (per QP: posts modulo cq_mod,
     * outstanding, unsignalled posts since the last signalled; the signalled completions awaited, in order) repeats.
     */
    static List<String> timedBwLoop(Options o, long size, String peer) {
        int q = o.qps();
        int tx = o.txDepth();
        int cq = o.cqModAt(size);
        long[] scnt = new long[q];
        long[] ccnt = new long[q];
        long[] pending = new long[q];
        ArrayDeque<long[]> signalled = new ArrayDeque<>();
        List<String> calls = new ArrayList<>();
        java.util.Map<String, Integer> seen = new java.util.HashMap<>();
        while (true) {
            for (int k = 0; k < q; k++) {
                while (scnt[k] - ccnt[k] < tx) {
                    boolean sig = (scnt[k] + 1) % cq == 0;
                    calls.add(post(o.test(), k, size, peer, sig));
                    scnt[k]++;
                    pending[k]++;
                    if (sig) {
                        signalled.add(new long[] {k, pending[k]});
                        pending[k] = 0;
                    }
                }
            }
            long[] s = signalled.poll();
            calls.add(waitOn("req_evd"));
            ccnt[(int) s[0]] += s[1];
            StringBuilder key = new StringBuilder();
            for (int k = 0; k < q; k++) {
                key.append(scnt[k] % cq).append(',').append(scnt[k] - ccnt[k]).append(',').append(pending[k])
                        .append(';');
            }
            for (long[] w : signalled) {
                key.append(w[0]).append(':').append(w[1]).append(' ');
            }
            Integer first = seen.putIfAbsent(key.toString(), calls.size());
            if (first != null) {
                List<String> out = new ArrayList<>(compress(calls.subList(0, first)));
                if (o.test() == Test.SEND_BW) {
                    out.add("{\"call\": \"sleep\", \"time\": \"0ns\", \"name\": \"" + LOOP_STARTS + "\"}");
                }
                out.add(timed(o, compress(calls.subList(first, calls.size()))));
                out.add(repeat(signalled.size(), List.of(waitOn("req_evd"))));
                return out;
            }
        }
    }

    /**
     * perftest's run_iter_bw for one client, as the sequence of calls it makes: per QP, post while fewer than
     * tx_depth are outstanding (every cq_mod-th post and each QP's last signalled), then reap one completion. The
     * generated sequence assumes completions arrive in posting order across QPs (RC completes in order per QP; with
     * several QPs on one port the oldest finishes first).
     */
    static List<String> bwLoop(Options o, long size, String peer) {
        int q = o.qps();
        int n = o.iters();
        int tx = o.txDepth();
        int cq = o.cqModAt(size);
        long[] scnt = new long[q];
        long[] ccnt = new long[q];
        ArrayDeque<long[]> signalled = new ArrayDeque<>();
        long[] pending = new long[q];
        List<String> calls = new ArrayList<>();
        long done = 0;
        long total = (long) n * q;
        while (done < total) {
            for (int k = 0; k < q; k++) {
                while (scnt[k] < n && scnt[k] - ccnt[k] < tx) {
                    boolean sig = (scnt[k] + 1) % cq == 0 || scnt[k] == n - 1;
                    calls.add(post(o.test(), k, size, peer, sig));
                    scnt[k]++;
                    pending[k]++;
                    if (sig) {
                        signalled.add(new long[] {k, pending[k]});
                        pending[k] = 0;
                    }
                }
            }
            long[] s = signalled.poll();
            calls.add(waitOn("req_evd"));
            ccnt[(int) s[0]] += s[1];
            done += s[1];
        }
        return calls;
    }

    private static String repeat(long n, List<String> calls) {
        return "{\"repeat\": " + n + ", \"calls\": [" + String.join(", ", calls) + "]}";
    }

    /** Run-length compression of a call sequence into repeat blocks (of single calls and of call pairs). */
    static List<String> compress(List<String> calls) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < calls.size()) {
            int run = 1;
            while (i + run < calls.size() && calls.get(i + run).equals(calls.get(i))) {
                run++;
            }
            if (run > 1) {
                out.add(repeat(run, List.of(calls.get(i))));
                i += run;
                continue;
            }
            int pairs = 1;
            while (i + 2 * pairs + 1 < calls.size() && calls.get(i + 2 * pairs).equals(calls.get(i))
                    && calls.get(i + 2 * pairs + 1).equals(calls.get(i + 1))) {
                pairs++;
            }
            if (pairs > 1) {
                out.add(repeat(pairs, List.of(calls.get(i), calls.get(i + 1))));
                i += 2 * pairs;
            } else {
                out.add(calls.get(i));
                i++;
            }
        }
        return out;
    }
}

package org.datsim.scenario.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.load.ScenarioLoader;
import org.datsim.scenario.run.Observations;
import org.junit.jupiter.api.Test;

/**
 * Issue 27, item 2: explore finds exactly the outcomes the DAT rules allow, on generated scenarios, checked against
 * a brute-force reference written from docs/rules.md, not from the simulator.
 *
 * <p>The family: host B holds X (64 bytes of 0x22) and Z (64 bytes of 0x00); client A (and, on 3 hosts, client C)
 * connects to B, waits for B's "go" Send, then posts 2 to 6 operations in all back to back on its one endpoint: A
 * RDMA-Reads X (each Read into its own buffer), RDMA-Writes X or Z (a value of its own per Write), a Write after a
 * Read sometimes with DAT_COMPLETION_BARRIER_FENCE_FLAG; C RDMA-Writes Z, or in half of the scenarios only RDMA-Reads
 * it (its Reads race A's Writes of Z: rule 2; an endpoint that both Reads and Writes the location another endpoint
 * Writes is left out, see docs/lab.md). Each client then takes its completions,
 * reads what its Reads returned, and disconnects; B, both connections closed, reads X and Z. Observed: each Read's
 * bytes, X and Z at the end, and (3 hosts) which go Send completed first at B. In a third of the scenarios B's CPU
 * cache is not snooped by DMA (memory.coherence cpu_noncoherent): B syncs X after writing it (rule 31) in half of
 * those (in the other half its 0x22 stays in its cache, and A only Reads X: a CPU write-back racing remote Reads),
 * reads X and Z early, and in half of them calls dat_lmr_sync_rdma_write before its final reads.
 *
 * <p>The reference: every operation is one event at B's memory (64 bytes, one packet: placed or fetched at once);
 * the outcomes are those of every total order of the events that keeps the rules: on one endpoint, a Read after any
 * earlier operation (a Read sees the earlier Writes of its endpoint), a Write after an earlier Write (rule 20: they
 * land in order), a Write after an earlier Read only if fenced (rule 17) or it may land before the Read fetched
 * (rule 19); nothing orders the two clients (rule 2: no order between endpoints, and neither waits for the other).
 * B's two go completions come out in either order (rule 2). On the non-coherent B without the final sync, each
 * final read may return the line B read early or what memory holds (rule 32). Without B's dat_lmr_sync_rdma_read,
 * X's memory holds 0x00 until B's cache writes the line back, an event anywhere in the order (or never): A's Reads
 * of X see 0x00 before it and 0x22 after (rule 31); B's own reads of X see its 0x22. The generator leaves out A's
 * Writes of X in that shape: explore opens the write-back at DMA reads only, not against a Write it would
 * overwrite.
 */
class CompletenessTest {

    private static final ObjectMapper M = new ObjectMapper();
    /** How many scenarios are generated (the issue asks for at least 200). */
    private static final int SCENARIOS = 200;

    /** One generated operation: its client, kind, target, value written, fence. */
    record Op(char client, boolean read, char target, int value, boolean fenced) {
    }

    /**
     * The shape of a generated scenario: 3 hosts or 2; B's CPU cache not snooped by DMA (memory.coherence
     * cpu_noncoherent), B having read X and Z early so that their lines sit in it; and B calling
     * dat_lmr_sync_rdma_write before its final reads.
     */
    record Shape(boolean threeHosts, boolean noncoherent, boolean sync, boolean syncRead) {

        Shape(boolean threeHosts, boolean noncoherent, boolean sync) {
            this(threeHosts, noncoherent, sync, true);
        }

        /** Whether B's CPU write of X may still sit in its cache when A's Reads fetch X (no sync_rdma_read). */
        boolean writeBackRaces() {
            return noncoherent && !syncRead;
        }
    }

    // ------------------------------------------------------------------ the generator

    static List<Op> generate(Random r, boolean threeHosts) {
        return generate(r, threeHosts, false);
    }

    /** Generates the operations; with {@code readsOfX} A's operations on X are Reads only. */
    static List<Op> generate(Random r, boolean threeHosts, boolean readsOfX) {
        int n = 2 + r.nextInt(5);
        List<Op> ops = new ArrayList<>();
        int aValue = 0x31;
        int zValue = 0xa1;
        int cValue = 0xc1;
        boolean aReadBefore = false;
        boolean cReads = threeHosts && r.nextBoolean(); // C only Reads Z, or only Writes it
        for (int i = 0; i < n; i++) {
            boolean onC = threeHosts && r.nextInt(3) == 0;
            if (onC) {
                boolean read = cReads;
                ops.add(new Op('C', read, 'Z', read ? 0 : cValue++, false));
                continue;
            }
            int kind = r.nextInt(3);
            if (kind == 0) {
                ops.add(new Op('A', true, 'X', 0, false));
                aReadBefore = true;
            } else {
                char target = kind == 1 && !readsOfX ? 'X' : 'Z';
                boolean fenced = aReadBefore && r.nextInt(3) == 0;
                ops.add(new Op('A', false, target, target == 'X' ? aValue++ : zValue++, fenced));
            }
        }
        if (ops.stream().noneMatch(o -> o.client() == 'A')) {
            ops.add(0, new Op('A', true, 'X', 0, false)); // every scenario has a client A
        }
        return ops;
    }

    // ------------------------------------------------------------------ the reference

    /** The outcomes the rules allow on a coherent host, each as "{name=value, ...}" in name order. */
    static Set<String> reference(List<Op> ops, boolean threeHosts) {
        return reference(ops, new Shape(threeHosts, false, false));
    }

    /**
     * The outcomes the rules allow. On a CPU non-coherent B that read X and Z early and does not sync, each final
     * read may return the line B's cache still holds (what B read early) or what memory holds (rule 32).
     */
    static Set<String> reference(List<Op> ops, Shape shape) {
        boolean threeHosts = shape.threeHosts();
        Set<String> out = new TreeSet<>();
        int n = ops.size();
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        do {
            if (!allowed(ops, perm)) {
                continue;
            }
            // Without B's sync_rdma_read, the write-back of B's 0x22 is one more event, at any position q (n: never).
            boolean wb = shape.writeBackRaces();
            for (int q = wb ? 0 : n; q <= n; q++) {
                add(out, ops, perm, shape, wb ? q : -1);
            }
        } while (next(perm));
        return out;
    }

    /** Adds the outcomes of one order (and write-back position, or -1) to {@code out}. */
    private static void add(Set<String> out, List<Op> ops, int[] perm, Shape shape, int writeBackAt) {
        boolean threeHosts = shape.threeHosts();
        int n = ops.size();
        {
            TreeMap<String, String> obs = new TreeMap<>();
            int x = writeBackAt >= 0 ? 0x00 : 0x22;
            int z = 0x00;
            for (int p = 0; p < n; p++) {
                if (p == writeBackAt) {
                    x = 0x22;
                }
                Op o = ops.get(perm[p]);
                if (o.read()) {
                    obs.put("r" + perm[p], hex(o.target() == 'X' ? x : z));
                } else if (o.target() == 'X') {
                    x = o.value();
                } else {
                    z = o.value();
                }
            }
            if (writeBackAt >= 0) {
                x = 0x22; // B reads its own bytes (its written line), synced or not
            }
            boolean stale = shape.noncoherent() && !shape.sync();
            for (int xs : stale ? new int[] {0x22, x} : new int[] {x}) {
                for (int zs : stale ? new int[] {0x00, z} : new int[] {z}) {
                    obs.put("x", hex(xs));
                    obs.put("z", hex(zs));
                    if (threeHosts) {
                        for (String first : List.of("900", "901")) {
                            TreeMap<String, String> o2 = new TreeMap<>(obs);
                            o2.put("first", first);
                            out.add(o2.toString());
                        }
                    } else {
                        out.add(obs.toString());
                    }
                }
            }
        }
    }

    /** Whether a total order of the operations keeps the rules (see the class comment). */
    static boolean allowed(List<Op> ops, int[] perm) {
        int n = ops.size();
        int[] at = new int[n];
        for (int p = 0; p < n; p++) {
            at[perm[p]] = p;
        }
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                Op first = ops.get(a);
                Op later = ops.get(b);
                if (first.client() != later.client()) {
                    continue; // rule 2: no order between endpoints
                }
                boolean ordered = later.read() // a Read sees what its endpoint did before it
                        || !first.read() // rule 20: Writes of one endpoint land in posting order
                        || later.fenced(); // rule 17: a fenced Write waits for the earlier Reads
                // otherwise rule 19: an unfenced Write may land before an earlier Read fetched
                if (ordered && at[a] > at[b]) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean next(int[] p) {
        int i = p.length - 2;
        while (i >= 0 && p[i] >= p[i + 1]) {
            i--;
        }
        if (i < 0) {
            return false;
        }
        int j = p.length - 1;
        while (p[j] <= p[i]) {
            j--;
        }
        int t = p[i];
        p[i] = p[j];
        p[j] = t;
        for (int l = i + 1, r = p.length - 1; l < r; l++, r--) {
            t = p[l];
            p[l] = p[r];
            p[r] = t;
        }
        return true;
    }

    private static String hex(int v) {
        return String.format("0x%02x", v);
    }

    // ------------------------------------------------------------------ the scenario

    static String scenario(List<Op> ops, Shape shape) {
        boolean threeHosts = shape.threeHosts();
        ObjectNode s = M.createObjectNode();
        s.put("scenario", "completeness");
        s.put("seed", 1);
        ObjectNode fabric = s.putObject("fabric");
        ArrayNode hosts = fabric.putArray("hosts");
        ArrayNode links = fabric.putArray("links");
        hosts.add("A").add("B");
        if (threeHosts) {
            hosts.add("C");
            fabric.putArray("switches").add("S");
            for (String h : List.of("A", "B", "C")) {
                links.addObject().put("a", h).put("b", "S");
            }
        } else {
            links.addObject().put("a", "A").put("b", "B");
        }
        fabric.putObject("params").put("transport.read_ordering", "relaxed");
        if (shape.noncoherent()) {
            fabric.putObject("host_params").putObject("B").put("memory.coherence", "cpu_noncoherent");
        }
        ArrayNode procs = s.putArray("processes");
        procs.add(server(threeHosts ? 2 : 1, shape));
        procs.add(client("a", "A", 1000, ops, 'A', threeHosts));
        if (threeHosts) {
            procs.add(client("c", "C", 1001, ops, 'C', true));
        }
        return s.toString();
    }

    private static ObjectNode call(ArrayNode calls, String name) {
        ObjectNode c = calls.addObject();
        c.put("call", name);
        return c;
    }

    private static ObjectNode segment(String lmr) {
        ObjectNode seg = M.createObjectNode();
        seg.put("lmr", "$" + lmr).put("length", 64);
        return seg;
    }

    private static ObjectNode server(int conns, Shape shape) {
        ObjectNode p = M.createObjectNode();
        p.put("name", "b").put("host", "B");
        ArrayNode c = p.putArray("calls");
        call(c, "dat_ia_open").put("out", "ia");
        call(c, "dat_pz_create").put("ia", "$ia").put("out", "pz");
        call(c, "dat_evd_create").put("ia", "$ia").put("evd_min_qlen", 8).put("evd_flags", "DAT_EVD_CR_FLAG")
                .put("out", "cr_evd");
        call(c, "dat_evd_create").put("ia", "$ia").put("evd_min_qlen", 32).put("evd_flags", "DAT_EVD_DTO_FLAG")
                .put("out", "dto_evd");
        for (int i = 0; i < conns; i++) {
            call(c, "dat_evd_create").put("ia", "$ia").put("evd_min_qlen", 8)
                    .put("evd_flags", "DAT_EVD_CONNECTION_FLAG").put("out", "conn_evd" + i);
        }
        call(c, "dat_lmr_create").put("ia", "$ia").put("pz", "$pz").put("length", 64).put("out", "X");
        call(c, "mem_write").put("lmr", "$X").set("data", M.createObjectNode().put("fill", 0x22).put("length", 64));
        call(c, "dat_lmr_create").put("ia", "$ia").put("pz", "$pz").put("length", 64).put("out", "Z");
        if (shape.noncoherent()) {
            // Rule 31: the CPU's write of X reaches memory, where RDMA Reads fetch it, only after this sync.
            if (shape.syncRead()) {
                call(c, "dat_lmr_sync_rdma_read").put("ia", "$ia").putArray("local_segments").add(segment("X"));
            }
            call(c, "mem_read").put("lmr", "$X").put("length", 64); // X's and Z's lines now sit in B's cache
            call(c, "mem_read").put("lmr", "$Z").put("length", 64);
        }
        call(c, "dat_lmr_create").put("ia", "$ia").put("pz", "$pz").put("length", 8).put("out", "go");
        for (int i = 0; i < conns; i++) {
            call(c, "dat_ep_create").put("ia", "$ia").put("pz", "$pz").put("recv_evd", "$dto_evd")
                    .put("request_evd", "$dto_evd").put("connect_evd", "$conn_evd" + i).put("out", "ep" + i);
            call(c, "dat_psp_create").put("ia", "$ia").put("conn_qual", 1000 + i).put("evd", "$cr_evd")
                    .put("out", "psp" + i);
        }
        for (int i = 0; i < conns; i++) {
            call(c, "dat_evd_wait").put("evd", "$cr_evd").put("out", "req" + i);
            call(c, "dat_cr_accept").put("cr", "$req" + i + ".cr").put("ep", "$ep" + i);
            call(c, "dat_evd_wait").put("evd", "$conn_evd" + i);
        }
        for (int i = 0; i < conns; i++) {
            ObjectNode send = call(c, "dat_ep_post_send").put("ep", "$ep" + i).put("user_cookie", 900 + i);
            send.putArray("local_iov").addObject().put("lmr", "$go").put("length", 8);
        }
        for (int i = 0; i < conns; i++) {
            ObjectNode w = call(c, "dat_evd_wait").put("evd", "$dto_evd");
            if (i == 0 && conns == 2) {
                w.putObject("observe").put("first", "cookie");
            }
        }
        for (int i = 0; i < conns; i++) {
            call(c, "dat_evd_wait").put("evd", "$conn_evd" + i).putObject("expect")
                    .put("event", "DAT_CONNECTION_EVENT_DISCONNECTED");
        }
        if (shape.sync()) {
            call(c, "dat_lmr_sync_rdma_write").put("ia", "$ia").putArray("local_segments").add(segment("X"))
                    .add(segment("Z"));
        }
        call(c, "mem_read").put("lmr", "$X").put("length", 64).put("observe", "x");
        call(c, "mem_read").put("lmr", "$Z").put("length", 64).put("observe", "z");
        call(c, "dat_ia_close").put("ia", "$ia").put("flags", "DAT_CLOSE_ABRUPT_FLAG");
        return p;
    }

    private static ObjectNode client(String name, String host, int qual, List<Op> ops, char who, boolean start) {
        ObjectNode p = M.createObjectNode();
        p.put("name", name).put("host", host).put("start", "1us");
        ArrayNode c = p.putArray("calls");
        call(c, "dat_ia_open").put("out", "ia");
        call(c, "dat_pz_create").put("ia", "$ia").put("out", "pz");
        call(c, "dat_evd_create").put("ia", "$ia").put("evd_min_qlen", 8).put("evd_flags", "DAT_EVD_CONNECTION_FLAG")
                .put("out", "conn_evd");
        call(c, "dat_evd_create").put("ia", "$ia").put("evd_min_qlen", 32).put("evd_flags", "DAT_EVD_DTO_FLAG")
                .put("out", "dto_evd");
        call(c, "dat_ep_create").put("ia", "$ia").put("pz", "$pz").put("recv_evd", "$dto_evd")
                .put("request_evd", "$dto_evd").put("connect_evd", "$conn_evd").put("out", "ep");
        call(c, "dat_lmr_create").put("ia", "$ia").put("pz", "$pz").put("length", 8).put("out", "go");
        ObjectNode recv = call(c, "dat_ep_post_recv").put("ep", "$ep").put("user_cookie", 900);
        recv.putArray("local_iov").addObject().put("lmr", "$go").put("length", 8);
        int posts = 0;
        for (int i = 0; i < ops.size(); i++) {
            Op o = ops.get(i);
            if (o.client() != who) {
                continue;
            }
            call(c, "dat_lmr_create").put("ia", "$ia").put("pz", "$pz").put("length", 64).put("out", "L" + i);
            if (!o.read()) {
                call(c, "mem_write").put("lmr", "$L" + i)
                        .set("data", M.createObjectNode().put("fill", o.value()).put("length", 64));
            }
            posts++;
        }
        call(c, "dat_ep_connect").put("ep", "$ep").put("remote_ia_address", "B").put("remote_conn_qual", qual);
        call(c, "dat_evd_wait").put("evd", "$conn_evd").putObject("expect")
                .put("event", "DAT_CONNECTION_EVENT_ESTABLISHED");
        call(c, "dat_evd_wait").put("evd", "$dto_evd").putObject("expect").put("operation", "DAT_DTO_RECEIVE");
        for (int i = 0; i < ops.size(); i++) {
            Op o = ops.get(i);
            if (o.client() != who) {
                continue;
            }
            ObjectNode post = call(c, o.read() ? "dat_ep_post_rdma_read" : "dat_ep_post_rdma_write").put("ep", "$ep")
                    .put("user_cookie", i);
            post.putArray("local_iov").addObject().put("lmr", "$L" + i).put("length", 64);
            String t = o.target() == 'X' ? "X" : "Z";
            post.putObject("remote_iov").put("rmr_context", "$b/" + t + ".rmr_context")
                    .put("address", "$b/" + t + ".address").put("length", 64);
            if (o.fenced()) {
                post.put("completion_flags", "DAT_COMPLETION_BARRIER_FENCE_FLAG");
            }
        }
        for (int k = 0; k < posts; k++) {
            call(c, "dat_evd_wait").put("evd", "$dto_evd").putObject("expect").put("status", "DAT_DTO_SUCCESS");
        }
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i).client() == who && ops.get(i).read()) {
                call(c, "mem_read").put("lmr", "$L" + i).put("length", 64).put("observe", "r" + i);
            }
        }
        call(c, "dat_ep_disconnect").put("ep", "$ep").put("flags", "DAT_CLOSE_GRACEFUL_FLAG");
        call(c, "dat_evd_wait").put("evd", "$conn_evd").putObject("expect")
                .put("event", "DAT_CONNECTION_EVENT_DISCONNECTED");
        call(c, "dat_ia_close").put("ia", "$ia").put("flags", "DAT_CLOSE_ABRUPT_FLAG");
        return p;
    }

    /** An explore outcome as the reference writes it: each name's bytes as their fill (they are uniform). */
    static String key(Observations named) {
        TreeMap<String, String> m = new TreeMap<>();
        for (Observations.Observation o : named.list()) {
            if (o.bytes() != null) {
                byte[] b = o.bytes();
                boolean uniform = true;
                for (byte v : b) {
                    uniform &= v == b[0];
                }
                m.put(o.key(), uniform ? hex(b[0] & 0xff) : "mixed " + java.util.Arrays.toString(b));
            } else {
                m.put(o.key(), o.value().asText());
            }
        }
        return m.toString();
    }

    // ------------------------------------------------------------------ the test

    @Test
    void exploreFindsExactlyTheOutcomesTheRulesAllowOnGeneratedScenarios() throws Exception {
        Random r = new Random(27);
        int checked = 0;
        int reachedSeveral = 0;
        int readVsWrite = 0;
        int writeBack = 0;
        for (int k = 0; k < SCENARIOS; k++) {
            boolean three = r.nextBoolean();
            boolean noncoherent = r.nextInt(3) == 0;
            Shape shape = new Shape(three, noncoherent, noncoherent && r.nextBoolean(),
                    !noncoherent || r.nextBoolean());
            List<Op> ops = generate(r, three, shape.writeBackRaces());
            String json = scenario(ops, shape);
            Scenario s = ScenarioLoader.parse("generated-" + k + ".json", json);
            Explorer.Report rep = new Explorer(s, new Explorer.Settings(5_000, 0, 1, true)).explore();
            assertTrue(rep.exhaustive(), "scenario " + k + " " + ops + ": not explored exhaustively");
            Set<String> found = new TreeSet<>();
            for (Explorer.Outcome o : rep.outcomes()) {
                assertTrue(o.problems().isEmpty(), "scenario " + k + " " + ops + ": " + o.problems());
                found.add(key(o.named()));
            }
            Set<String> want = reference(ops, shape);
            int index = k;
            assertEquals(want, found, () -> "scenario " + index + " " + shape + " " + ops + "\n" + json);
            checked++;
            if (ops.stream().anyMatch(o -> o.client() == 'C' && o.read())
                    && ops.stream().anyMatch(o -> o.client() == 'A' && !o.read() && o.target() == 'Z')) {
                readVsWrite++; // a Read of C against Writes of A to Z (rule 2)
            }
            if (shape.writeBackRaces() && ops.stream().anyMatch(o -> o.read() && o.target() == 'X')) {
                writeBack++; // B's unsynced CPU write of X against A's Reads of X (rule 31)
            }
            if (want.size() > 1) {
                reachedSeveral++;
            }
        }
        assertEquals(SCENARIOS, checked);
        assertTrue(reachedSeveral > SCENARIOS / 2, reachedSeveral + " scenarios with several outcomes");
        assertTrue(readVsWrite >= 20, readVsWrite + " scenarios with a Read against another endpoint's Write");
        assertTrue(writeBack >= 10, writeBack + " scenarios with a CPU write-back against a remote Read");
    }

    @Test
    void theReferenceIsTheRules() {
        // A Read then an unfenced Write of X: both values (rule 19); fenced: the old one only (rule 17).
        List<Op> unfenced = List.of(new Op('A', true, 'X', 0, false), new Op('A', false, 'X', 0x31, false));
        assertEquals(Set.of("{r0=0x22, x=0x31, z=0x00}", "{r0=0x31, x=0x31, z=0x00}"), reference(unfenced, false));
        List<Op> fenced = List.of(new Op('A', true, 'X', 0, false), new Op('A', false, 'X', 0x31, true));
        assertEquals(Set.of("{r0=0x22, x=0x31, z=0x00}"), reference(fenced, false));
        // Writes of one endpoint land in order (rule 20); two endpoints' in either (rule 2).
        List<Op> ww = List.of(new Op('A', false, 'Z', 0xa1, false), new Op('A', false, 'Z', 0xa2, false),
                new Op('C', false, 'Z', 0xc1, false));
        Set<String> z = new TreeSet<>();
        reference(ww, true).forEach(o -> z.add(o.replaceAll(".*z=(0x..).*", "$1")));
        assertEquals(Set.of("0xa2", "0xc1"), z);
    }
}

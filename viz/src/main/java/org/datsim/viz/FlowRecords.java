package org.datsim.viz;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A workload run's flows as the views draw them, read from its {@code fct.csv} (written by the scenarios module;
 * columns found by name, so both of its formats are read): one record per flow in flow order, its index the flow's
 * number ({@code flowN} in the trace).
 */
public final class FlowRecords {

    /** The file name in a run directory. */
    public static final String FILE = "fct.csv";

    private FlowRecords() {
    }

    /**
     * One flow.
     *
     * @param index its number in flow order
     * @param src its source host
     * @param dst its destination host
     * @param sizeBytes its size
     * @param startPs when it was posted
     * @param fctPs its FCT, or -1 if it did not complete
     * @param idealPs its FCT alone with congestion control off, or -1
     * @param standalonePs HPCC's standalone FCT of it, or -1
     */
    public record Flow(int index, String src, String dst, long sizeBytes, long startPs, long fctPs, long idealPs,
            long standalonePs) {

        /** Returns FCT / ideal FCT, or NaN. */
        public double slowdown() {
            return fctPs < 0 || idealPs <= 0 ? Double.NaN : (double) fctPs / idealPs;
        }

        /** Returns FCT / standalone FCT, or NaN. */
        public double slowdownVsStandalone() {
            return fctPs < 0 || standalonePs <= 0 ? Double.NaN : (double) fctPs / standalonePs;
        }
    }

    /**
     * Reads a run directory's flows.
     *
     * @param runDir the run directory
     * @return its flows, empty if it has no fct.csv
     * @throws IOException if the file cannot be read or is malformed (the message names file and line)
     */
    public static List<Flow> read(Path runDir) throws IOException {
        Path f = runDir.resolve(FILE);
        List<Flow> out = new ArrayList<>();
        if (!RunFiles.exists(f)) {
            return out;
        }
        int[] at = {1};
        try (BufferedReader r = RunFiles.reader(f, RunFiles.MAX_TABLE_BYTES)) {
            read(f, r, out, at);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IOException(RunFiles.notUtf8(f, at[0]), e);
        }
        return out;
    }

    private static void read(Path f, BufferedReader r, List<Flow> out, int[] at) throws IOException {
        String header = r.readLine();
        if (header == null) {
            return;
        }
        Map<String, Integer> col = new HashMap<>();
        String[] h = header.split(",", -1);
        for (int i = 0; i < h.length; i++) {
            col.put(h[i].trim(), i);
        }
        for (String need : List.of("src", "dst", "size_bytes", "start_ps", "fct_ps")) {
            if (!col.containsKey(need)) {
                throw new IOException(f + ":1: no column " + need);
            }
        }
        String line;
        int n = 1;
        while ((line = r.readLine()) != null) {
            n++;
            at[0] = n + 1;
            if (line.isBlank()) {
                continue;
            }
            String[] v = line.split(",", -1);
            try {
                out.add(new Flow(out.size(), v[col.get("src")], v[col.get("dst")],
                        Long.parseLong(v[col.get("size_bytes")]), Long.parseLong(v[col.get("start_ps")]),
                        num(v, col.get("fct_ps")), num(v, col.get("ideal_fct_ps")),
                        num(v, col.get("standalone_fct_ps"))));
            } catch (RuntimeException e) {
                throw new IOException(f + ":" + n + ": not a flow line (" + RunFiles.clean(String.valueOf(
                        e.getMessage())) + ")");
            }
        }
    }

    private static long num(String[] v, Integer i) {
        if (i == null || i >= v.length || v[i].isBlank()) {
            return -1;
        }
        return Long.parseLong(v[i].trim());
    }

    /**
     * A size with an SI suffix of powers of ten and its unit: 25.3 KB, 1.2 MB, 512 B.
     *
     * @param bytes the size
     * @return the text
     */
    public static String size(long bytes) {
        if (bytes < 1000) {
            return bytes + " B";
        }
        return FctPlot.sizeLabel(bytes) + "B";
    }
}

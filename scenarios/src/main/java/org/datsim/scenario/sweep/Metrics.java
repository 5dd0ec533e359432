package org.datsim.scenario.sweep;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The metrics of one run, read from its {@code summary.json}. Standard metrics: {@code makespan_us} (simulated end
 * time), {@code events}, {@code calls}, {@code errors} (calls that returned an error), {@code expect_failed},
 * {@code unfinished} (processes), {@code fence_waits}, {@code stale_reads}, {@code packets}, {@code wire_bytes},
 * {@code throughput_gbps} (bytes of the completed sends, RDMA Writes and RDMA Reads over the time from the first
 * of them posted to the last completed, so connection setup does not count), and per
 * operation kind K: {@code K.count}, {@code K.mean_us}, {@code K.p50_us}, {@code K.p90_us}, {@code K.p99_us},
 * {@code K.max_us}, {@code K.bytes}. Every number in the summary under a member whose name contains {@code cache},
 * {@code qpc}, {@code miss} or {@code hit} (at any depth) is a metric too, named by its path joined with dots. A study may select metrics by name, by glob
 * ({@code *.p99_us}) or by a JSON Pointer into summary.json ({@code /hca/qp_cache/miss_rate}).
 */
public final class Metrics {

    /** The metrics that do not depend on an operation kind. */
    public static final List<String> FIXED = List.of("makespan_us", "events", "calls", "errors", "expect_failed",
            "unfinished", "fence_waits", "stale_reads", "packets", "wire_bytes", "throughput_gbps");
    /** The statistics of each operation kind. */
    public static final List<String> OP_STATS = List.of("count", "mean_us", "p50_us", "p90_us", "p99_us",
            "max_us", "bytes");
    private static final Set<String> THROUGHPUT_KINDS = Set.of("send", "rdma_write", "rdma_read");

    private Metrics() {
    }

    /**
     * Checks a metric selector of a study.
     *
     * @param sel the selector
     * @return null if valid, else what is wrong and what was expected
     */
    static String checkSelector(String sel) {
        if (sel.startsWith("/")) {
            try {
                JsonPointer.compile(sel);
                return null;
            } catch (IllegalArgumentException e) {
                return "\"" + sel + "\" is not a JSON Pointer into summary.json";
            }
        }
        if (FIXED.contains(sel) || sel.contains("*") || isCacheName(sel)) {
            return null;
        }
        int dot = sel.lastIndexOf('.');
        if (dot > 0 && OP_STATS.contains(sel.substring(dot + 1))) {
            return null;
        }
        return "unknown metric \"" + sel + "\"; expected one of " + FIXED + ", KIND.STAT with STAT one of " + OP_STATS
                + " (KIND an operation kind such as rdma_read), a glob such as \"*.p99_us\", a name containing"
                + " \"cache\", or a JSON Pointer into summary.json such as \"/packets\"";
    }

    /**
     * Extracts every standard metric of a run.
     *
     * @param summary the parsed summary.json
     * @return the metrics by name, in a fixed order (fixed metrics, then operation kinds in name order, then caches)
     */
    static Map<String, Double> extract(JsonNode summary) {
        Map<String, Double> m = new LinkedHashMap<>();
        long end = summary.path("end_time_ps").asLong();
        m.put("makespan_us", end / 1e6);
        m.put("events", summary.path("events_executed").asDouble());
        m.put("calls", summary.path("calls").asDouble());
        m.put("errors", summary.path("calls_returning_errors").asDouble());
        m.put("expect_failed", summary.path("expectations").path("failed").asDouble());
        m.put("unfinished", (double) summary.path("unfinished_processes").size());
        m.put("fence_waits", summary.path("trace_events").path("fence_wait").asDouble());
        m.put("stale_reads", summary.path("stale_reads").asDouble());
        m.put("packets", summary.path("packets").asDouble());
        m.put("wire_bytes", summary.path("wire_bytes").asDouble());
        double bytes = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        JsonNode ops = summary.path("operations");
        for (Iterator<Map.Entry<String, JsonNode>> it = ops.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (THROUGHPUT_KINDS.contains(e.getKey())) {
                bytes += e.getValue().path("bytes").asDouble();
                first = Math.min(first, e.getValue().path("first_post_ps").asLong(0));
                last = Math.max(last, e.getValue().path("last_complete_ps").asLong(end));
            }
        }
        m.put("throughput_gbps", last > first ? bytes * 8 * 1000 / (last - first) : 0.0);
        for (Iterator<Map.Entry<String, JsonNode>> it = ops.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            String k = e.getKey().replace(':', '!');
            JsonNode o = e.getValue();
            m.put(k + ".count", o.path("count").asDouble());
            m.put(k + ".mean_us", o.path("mean_ps").asLong() / 1e6);
            m.put(k + ".p50_us", o.path("p50_ps").asLong() / 1e6);
            m.put(k + ".p90_us", o.path("p90_ps").asLong() / 1e6);
            m.put(k + ".p99_us", o.path("p99_ps").asLong() / 1e6);
            m.put(k + ".max_us", o.path("max_ps").asLong() / 1e6);
            m.put(k + ".bytes", o.path("bytes").asDouble());
        }
        caches(summary, "", false, m);
        return m;
    }

    private static void caches(JsonNode n, String path, boolean inCache, Map<String, Double> out) {
        if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                if (path.isEmpty() && (e.getKey().equals("params") || e.getKey().equals("host_params"))) {
                    continue;
                }
                String p = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                caches(e.getValue(), p, inCache || isCacheName(e.getKey()), out);
            }
        } else if (inCache && n.isNumber()) {
            out.put(path, n.asDouble());
        }
    }

    /** Returns true for a summary member that holds cache statistics: its name has cache, qpc, miss or hit. */
    static boolean isCacheName(String key) {
        String k = key.toLowerCase(java.util.Locale.ROOT);
        return k.contains("cache") || k.contains("qpc") || k.contains("miss") || k.contains("hit");
    }

    /**
     * Selects the metrics a study asks for.
     *
     * @param all every standard metric of the run
     * @param summary the parsed summary.json (for JSON Pointer selectors)
     * @param selectors the study's selectors; empty for all
     * @return the selected metrics, in selector order, then standard order within a glob
     */
    static Map<String, Double> select(Map<String, Double> all, JsonNode summary, List<String> selectors) {
        if (selectors.isEmpty()) {
            return all;
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (String sel : selectors) {
            if (sel.startsWith("/")) {
                JsonNode v = summary.at(JsonPointer.compile(sel));
                if (v.isNumber()) {
                    out.put(sel, v.asDouble());
                } else if (v.isBoolean()) {
                    out.put(sel, v.asBoolean() ? 1.0 : 0.0);
                }
            } else if (sel.contains("*")) {
                Pattern p = Pattern.compile(glob(sel));
                all.forEach((k, v) -> {
                    if (p.matcher(k).matches()) {
                        out.put(k, v);
                    }
                });
            } else if (all.containsKey(sel)) {
                out.put(sel, all.get(sel));
            }
        }
        return out;
    }

    private static String glob(String g) {
        List<String> parts = new java.util.ArrayList<>();
        for (String part : g.split("\\*", -1)) {
            parts.add(Pattern.quote(part));
        }
        return String.join(".*", parts);
    }
}

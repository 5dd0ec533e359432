package org.datsim.scenario.load;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * References to named values: {@code "$name"}, {@code "$name.field"} and {@code "$process/name.field"}, and the
 * fields each kind of named value has.
 */
public final class Refs {

    private static final Pattern REF = Pattern.compile(Patterns.REF);
    private static final Pattern NAME = Pattern.compile(Patterns.NAME);
    private static final Pattern INDEXED_NAME = Pattern.compile(Patterns.INDEXED_NAME);

    /** The fields of each kind of named value; the bare name is the handle or value itself. */
    public static final Map<String, List<String>> FIELDS = Map.ofEntries(
            Map.entry("ia", List.of("async_evd")),
            Map.entry("pz", List.of()),
            Map.entry("evd", List.of()),
            Map.entry("ep", List.of()),
            Map.entry("srq", List.of()),
            Map.entry("cno", List.of()),
            Map.entry("provider_list", List.of("number_entries")),
            Map.entry("recv_info", List.of("nbufs_allocated", "bufs_alloc_span")),
            Map.entry("rsp", List.of()),
            Map.entry("rsp_param", List.of("conn_qual", "ep", "evd")),
            Map.entry("cno_param", List.of("ia", "agent")),
            Map.entry("srq_param", List.of("srq_state", "max_recv_dtos", "max_recv_iov", "low_watermark",
                    "available_dto_count", "outstanding_dto_count")),
            Map.entry("psp", List.of("conn_qual")),
            Map.entry("lmr", List.of("lmr_context", "rmr_context", "address", "length")),
            Map.entry("event", List.of("cr", "ep", "rmr", "cookie", "status", "transfered_length", "event", "operation")),
            Map.entry("op", List.of()),
            Map.entry("value", List.of()),
            Map.entry("ep_param", List.of("ep_state", "remote_port_qual", "max_message_size", "max_rdma_size",
                    "max_recv_dtos", "max_request_dtos", "max_recv_iov", "max_request_iov", "max_rdma_read_in",
                    "max_rdma_read_out", "request_completion_flags", "recv_completion_flags")),
            Map.entry("evd_param", List.of("evd_qlen", "evd_flags", "evd_state", "evd_size")),
            Map.entry("lmr_param", List.of("lmr_context", "rmr_context", "registered_address", "registered_size",
                    "mem_priv")),
            Map.entry("rmr_param", List.of("rmr_context", "target_address", "segment_length", "mem_priv")),
            Map.entry("pz_param", List.of("ia")),
            Map.entry("psp_param", List.of("conn_qual", "psp_flags")),
            Map.entry("cr_param", List.of("remote_port_qual", "private_data_size")),
            Map.entry("ia_attr", List.of("max_dto_per_ep", "max_rdma_read_per_ep_in", "max_rdma_read_per_ep_out",
                    "max_evd_qlen", "max_iov_segments_per_dto", "max_message_size", "max_rdma_size",
                    "max_recv_per_srq", "srq_supported", "srq_watermarks_supported", "srq_ep_pz_difference_supported",
                    "lmr_sync_req")),
            Map.entry("rmr", List.of("rmr_context", "address", "length")),
            Map.entry("rmr_bind", List.of("rmr_context", "address", "length", "op")),
            Map.entry("status", List.of("state", "recv_idle", "request_idle")));

    private Refs() {
    }

    /**
     * A parsed reference.
     *
     * @param process the process named, or null for the current one
     * @param name the value's name
     * @param index the expression between the brackets of an indexed name ({@code $i + 1} in {@code $ep[$i + 1]}),
     *     or null
     * @param field the field, or null for the value itself
     */
    public record Ref(String process, String name, String index, String field) {

        /** A reference without an index. */
        public Ref(String process, String name, String field) {
            this(process, name, null, field);
        }

        /** Returns the index as an expression's text ({@code "= $i + 1"}), or null. */
        public String indexExpr() {
            return index == null ? null : Refs.indexExpr(index);
        }

        /** Returns true if the reference is a bare name: a loop variable, a scenario variable or a value. */
        public boolean bare() {
            return process == null && index == null && field == null;
        }
    }

    /**
     * A name with an optional index, as {@code "out"} and {@code "observe"} take it.
     *
     * @param name the name
     * @param index the expression between the brackets, or null
     */
    public record IndexedName(String name, String index) {

        /** Returns the index as an expression's text ({@code "= $i"}), or null. */
        public String indexExpr() {
            return index == null ? null : Refs.indexExpr(index);
        }
    }

    /** Returns an index's expression text: the index with "=" before it. */
    public static String indexExpr(String index) {
        return Patterns.EXPR_PREFIX + " " + index;
    }

    /**
     * Parses a name with an optional index ({@code ep}, {@code ep[$i]}).
     *
     * @param text the text
     * @return the name, or null if the text is not one
     */
    public static IndexedName parseIndexed(String text) {
        Matcher m = INDEXED_NAME.matcher(text);
        return m.matches() ? new IndexedName(m.group(1), m.group(2)) : null;
    }

    /**
     * Parses a reference.
     *
     * @param text a string from the scenario
     * @return the reference, or null if the text is not one
     */
    public static Ref parse(String text) {
        Matcher m = REF.matcher(text);
        if (!m.matches()) {
            return null;
        }
        return new Ref(m.group(1), m.group(2), m.group(3), m.group(4));
    }

    /** Returns true if the text may name a value bound by "out". */
    public static boolean isName(String text) {
        return NAME.matcher(text).matches();
    }
}

package org.datsim.scenario.load;

import static org.datsim.scenario.consumer.CallCost.CALL;
import static org.datsim.scenario.consumer.CallCost.NONE;
import static org.datsim.scenario.consumer.CallCost.POST_RECEIVE;
import static org.datsim.scenario.consumer.CallCost.POST_REQUEST;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.NamedValues;
import org.datsim.scenario.consumer.CallCost;

/**
 * Every call a scenario may make, with its arguments. Argument names are those of the DAT man pages. Calls of the
 * DAT API that are not listed here are not supported yet, and a scenario that uses one is rejected before the run
 * with a message that says so. Each call declares what it costs the consumer's CPU ({@link CallCost}).
 */
public final class CallCatalog {

    private static final List<String> EVENT_EXPECT = List.of("event", "status", "cookie", "transfered_length",
            "operation", "ep", "immediate_data");
    private static final Map<String, CallSpec> CALLS = new LinkedHashMap<>();
    /** The fields of a DAT_SRQ_ATTR argument. */
    public static final List<String> SRQ_ATTR_FIELDS = List.of("max_recv_dtos", "max_recv_iov", "low_watermark");

    /** The pseudo-call of repeat blocks (not a call a scenario names with "call"). */
    public static final CallSpec REPEAT = new CallSpec("repeat", NONE, null, List.of(),
            "Repeat the calls of a block a number of times, with a loop variable");

    private CallCatalog() {
    }

    private static CallSpec.Arg req(String name, ArgType type) {
        return new CallSpec.Arg(name, type, true, null, null);
    }

    private static CallSpec.Arg opt(String name, ArgType type) {
        return new CallSpec.Arg(name, type, false, null, null);
    }

    private static CallSpec.Arg flags(String name, NamedValues group, boolean required) {
        return new CallSpec.Arg(name, ArgType.FLAGS, required, group, null);
    }

    private static void add(String name, CallCost cost, String outKind, List<String> expect, String summary,
            CallSpec.Arg... args) {
        CALLS.put(name, new CallSpec(name, cost, outKind, expect, summary, args));
    }

    static {
        List<String> none = List.of();
        add("dat_ia_open", CALL, "ia", none, "Open an interface adapter (and its async EVD, bound as $ia.async_evd)",
                opt("ia_name", ArgType.STRING), opt("async_evd_qlen", ArgType.INT));
        add("dat_ia_close", CALL, null, none, "Close an interface adapter", req("ia", ArgType.HANDLE),
                flags("flags", Dat.CLOSE_FLAGS, false));
        add("dat_ia_query", CALL, "ia_attr", List.of("attrs"), "Read the IA and provider attributes (lmr_sync_req, limits)",
                req("ia", ArgType.HANDLE));
        for (String[] q : new String[][] {{"ep", "ep_param"}, {"evd", "evd_param"}, {"lmr", "lmr_param"},
            {"rmr", "rmr_param"}, {"pz", "pz_param"}, {"psp", "psp_param"}, {"cr", "cr_param"},
            {"srq", "srq_param"}, {"cno", "cno_param"}, {"rsp", "rsp_param"}}) {
            add("dat_" + q[0] + "_query", CALL, q[1], List.of("attrs"), "Read the " + q[0].toUpperCase(java.util.Locale.ROOT)
                    + "'s parameters", req(q[0], ArgType.HANDLE));
        }
        add("dat_registry_list_providers", CALL, "provider_list", List.of("attrs"), "List the static registry's IA"
                + " names (number_entries)", req("max_to_return", ArgType.INT));
        add("dat_registry_add_provider", CALL, null, none, "Register an IA name (provider_info.ia_name) in the dynamic"
                + " registry", req("ia_name", ArgType.STRING));
        add("dat_registry_remove_provider", CALL, null, none, "Remove an IA name from the dynamic registry",
                req("ia_name", ArgType.STRING));
        add("dat_provider_init", CALL, null, none, "The provider's constructor: registers provider_info.ia_name if it"
                + " serves it (void)", req("ia_name", ArgType.STRING), opt("instance_data", ArgType.STRING));
        add("dat_provider_fini", CALL, null, none, "The provider's destructor: removes provider_info.ia_name (void)",
                req("ia_name", ArgType.STRING));
        add("dat_set_consumer_context", CALL, null, none, "Attach a consumer value to any handle",
                req("handle", ArgType.HANDLE), req("context", ArgType.INT));
        add("dat_get_consumer_context", CALL, "value", List.of("context"), "Read a handle's consumer value",
                req("handle", ArgType.HANDLE));
        add("dat_get_handle_type", CALL, "value", List.of("handle_type"), "Read a handle's DAT_HANDLE_TYPE",
                req("handle", ArgType.HANDLE));
        add("dat_strerror", CALL, null, List.of("message"), "Describe a DAT_RETURN value, given as a type name,"
                + " TYPE/SUBTYPE or a number", req("value", ArgType.STRING));
        add("dat_pz_create", CALL, "pz", none, "Create a protection zone", req("ia", ArgType.HANDLE));
        add("dat_pz_free", CALL, null, none, "Free a protection zone", req("pz", ArgType.HANDLE));
        add("dat_evd_create", CALL, "evd", none, "Create an event dispatcher", req("ia", ArgType.HANDLE),
                req("evd_min_qlen", ArgType.INT), opt("cno", ArgType.HANDLE), flags("evd_flags", Dat.EVD_FLAGS, true));
        add("dat_evd_free", CALL, null, none, "Free an event dispatcher", req("evd", ArgType.HANDLE));
        add("dat_evd_wait", NONE, "event", EVENT_EXPECT, "Wait for events on an EVD", req("evd", ArgType.HANDLE),
                opt("timeout", ArgType.TIMEOUT), opt("threshold", ArgType.INT));
        add("dat_evd_dequeue", NONE, "event", EVENT_EXPECT, "Take an event off an EVD without waiting",
                req("evd", ArgType.HANDLE));
        add("dat_evd_set_unwaitable", CALL, null, none, "Make waits on an EVD fail with DAT_INVALID_STATE (and wake a"
                + " waiter)", req("evd", ArgType.HANDLE));
        add("dat_evd_clear_unwaitable", CALL, null, none, "Make an EVD waitable again", req("evd", ArgType.HANDLE));
        add("dat_evd_enable", CALL, null, none, "Let event arrivals affect the EVD's CNO", req("evd", ArgType.HANDLE));
        add("dat_evd_disable", CALL, null, none, "Stop event arrivals affecting the EVD's CNO", req("evd", ArgType.HANDLE));
        add("dat_evd_resize", CALL, null, none, "Change an EVD's queue length without losing events",
                req("evd", ArgType.HANDLE), req("evd_min_qlen", ArgType.INT));
        add("dat_evd_post_se", CALL, null, none, "Queue a software event (its pointer comes back as the event's cookie)",
                req("evd", ArgType.HANDLE), req("pointer", ArgType.INT));
        add("dat_evd_modify_cno", CALL, null, none, "Associate an EVD with another CNO, or with none (null)",
                req("evd", ArgType.HANDLE), req("cno", ArgType.HANDLE));
        add("dat_cno_create", CALL, "cno", none, "Create a consumer notification object; agent names an OS wait proxy"
                + " agent (default DAT_OS_WAIT_PROXY_AGENT_NULL)", req("ia", ArgType.HANDLE),
                opt("agent", ArgType.STRING));
        add("dat_cno_free", CALL, null, none, "Free a CNO", req("cno", ArgType.HANDLE));
        add("dat_cno_modify_agent", CALL, null, none, "Replace a CNO's OS wait proxy agent", req("cno", ArgType.HANDLE),
                opt("agent", ArgType.STRING));
        add("dat_cno_wait", NONE, "evd", List.of("evd"), "Wait until an EVD of the CNO is notified; binds that EVD (a hint)",
                req("cno", ArgType.HANDLE), opt("timeout", ArgType.TIMEOUT));
        add("dat_lmr_create", CALL, "lmr", none, "Register a region of host memory (DAT_MEM_TYPE_VIRTUAL)",
                req("ia", ArgType.HANDLE), req("pz", ArgType.HANDLE), req("length", ArgType.SIZE),
                opt("address", ArgType.INT), flags("privileges", Dat.MEM_PRIV, false));
        add("dat_lmr_free", CALL, null, none, "Deregister a memory region", req("lmr", ArgType.HANDLE));
        add("dat_lmr_sync_rdma_read", CALL, null, none, "Make CPU writes visible to an incoming RDMA Read (non-coherent"
                + " memory)", req("ia", ArgType.HANDLE), req("local_segments", ArgType.IOV));
        add("dat_lmr_sync_rdma_write", CALL, null, none, "Make an incoming RDMA Write visible to the CPU (non-coherent"
                + " memory)", req("ia", ArgType.HANDLE), req("local_segments", ArgType.IOV));
        add("dat_rmr_create", CALL, "rmr", none, "Create an unbound memory window (RMR) in a protection zone",
                req("pz", ArgType.HANDLE));
        add("dat_rmr_bind", POST_REQUEST, "rmr_bind", none, "Bind an RMR to a range of an LMR, on an endpoint's request queue;"
                + " length 0 unbinds", req("rmr", ArgType.HANDLE), req("lmr", ArgType.HANDLE),
                opt("offset", ArgType.SIZE), req("length", ArgType.SIZE), flags("mem_priv", Dat.MEM_PRIV, true),
                req("ep", ArgType.HANDLE), opt("user_cookie", ArgType.INT),
                flags("completion_flags", Dat.COMPLETION_FLAGS, false));
        add("dat_rmr_free", CALL, null, none, "Free an RMR", req("rmr", ArgType.HANDLE));
        add("dat_ep_create", CALL, "ep", none, "Create an endpoint", req("ia", ArgType.HANDLE),
                req("pz", ArgType.HANDLE), req("recv_evd", ArgType.HANDLE), req("request_evd", ArgType.HANDLE),
                req("connect_evd", ArgType.HANDLE), opt("ep_attr", ArgType.EP_ATTR));
        add("dat_ep_free", CALL, null, none, "Free an endpoint", req("ep", ArgType.HANDLE));
        add("dat_ep_connect", CALL, null, none, "Connect to a service point on another host", req("ep", ArgType.HANDLE),
                req("remote_ia_address", ArgType.HOST), req("remote_conn_qual", ArgType.INT),
                opt("timeout", ArgType.TIMEOUT), opt("private_data", ArgType.DATA));
        add("dat_ep_disconnect", CALL, null, none, "Disconnect an endpoint", req("ep", ArgType.HANDLE),
                flags("flags", Dat.CLOSE_FLAGS, false));
        add("dat_ep_get_status", CALL, "status", List.of("state", "recv_idle", "request_idle"),
                "Read an endpoint's state and whether its receive and request queues are idle",
                req("ep", ArgType.HANDLE));
        add("dat_psp_create", CALL, "psp", none, "Listen on a connection qualifier", req("ia", ArgType.HANDLE),
                req("conn_qual", ArgType.INT), req("evd", ArgType.HANDLE), flags("psp_flags", Dat.PSP_FLAGS, false));
        add("dat_psp_create_any", CALL, "psp", none, "Listen on a connection qualifier the provider picks ($psp.conn_qual)",
                req("ia", ArgType.HANDLE), req("evd", ArgType.HANDLE), flags("psp_flags", Dat.PSP_FLAGS, false));
        add("dat_psp_free", CALL, null, none, "Stop listening", req("psp", ArgType.HANDLE));
        add("dat_ep_modify", CALL, null, none, "Change an endpoint's attributes before it connects (the fields given are"
                + " the ep_param_mask)", req("ep", ArgType.HANDLE), req("ep_param", ArgType.EP_ATTR));
        add("dat_ep_dup_connect", CALL, null, none, "Connect to the same remote service point as a connected endpoint",
                req("ep", ArgType.HANDLE), req("dup_ep", ArgType.HANDLE), opt("timeout", ArgType.TIMEOUT),
                opt("private_data", ArgType.DATA));
        add("dat_ep_recv_query", CALL, "recv_info", List.of("attrs"), "Read the receive buffers at an endpoint"
                + " (nbufs_allocated, bufs_alloc_span)", req("ep", ArgType.HANDLE));
        add("dat_ep_set_watermark", CALL, null, none, "Set an endpoint's soft and hard high watermarks of receive buffers"
                + " (-1 is DAT_WATERMARK_INFINITE)", req("ep", ArgType.HANDLE), req("soft_high_watermark", ArgType.INT),
                req("hard_high_watermark", ArgType.INT));
        add("dat_rsp_create", CALL, "rsp", none, "Reserve a connection qualifier for one endpoint (one connection"
                + " request)", req("ia", ArgType.HANDLE), req("conn_qual", ArgType.INT), req("ep", ArgType.HANDLE),
                req("evd", ArgType.HANDLE));
        add("dat_rsp_free", CALL, null, none, "Free a reserved service point", req("rsp", ArgType.HANDLE));
        add("dat_ep_reset", CALL, null, none, "Return a DISCONNECTED endpoint to UNCONNECTED for another connection",
                req("ep", ArgType.HANDLE));
        add("dat_cr_accept", CALL, null, none, "Accept a connection request", req("cr", ArgType.HANDLE),
                req("ep", ArgType.HANDLE), opt("private_data", ArgType.DATA));
        add("dat_cr_reject", CALL, null, none, "Reject a connection request", req("cr", ArgType.HANDLE));
        add("dat_cr_handoff", CALL, null, none, "Hand a connection request to the PSP on another connection qualifier",
                req("cr", ArgType.HANDLE), req("handoff", ArgType.INT));
        add("dat_ep_post_send", POST_REQUEST, "op", none, "Post a Send", req("ep", ArgType.HANDLE), req("local_iov", ArgType.IOV),
                opt("user_cookie", ArgType.INT), flags("completion_flags", Dat.COMPLETION_FLAGS, false));
        add("dat_ep_post_recv", POST_RECEIVE, "op", none, "Post a receive", req("ep", ArgType.HANDLE),
                req("local_iov", ArgType.IOV), opt("user_cookie", ArgType.INT),
                flags("completion_flags", Dat.COMPLETION_FLAGS, false));
        add("dat_ep_post_rdma_write", POST_REQUEST, "op", none, "Post an RDMA Write", req("ep", ArgType.HANDLE),
                req("local_iov", ArgType.IOV), opt("user_cookie", ArgType.INT), req("remote_iov", ArgType.RMR),
                flags("completion_flags", Dat.COMPLETION_FLAGS, false));
        add("dat_ep_post_rdma_read", POST_REQUEST, "op", none, "Post an RDMA Read", req("ep", ArgType.HANDLE),
                req("local_iov", ArgType.IOV), opt("user_cookie", ArgType.INT), req("remote_iov", ArgType.RMR),
                flags("completion_flags", Dat.COMPLETION_FLAGS, false));
        add("dat_ib_post_rdma_write_immed", POST_REQUEST, "op", none, "Post an RDMA Write with immediate data (DAT IB extension):"
                + " its last packet carries the 32-bit immediate_data and consumes a receive at the remote endpoint,"
                + " which completes as DAT_IB_DTO_EVENT / DAT_IB_DTO_RECV_IMMED with it",
                req("ep", ArgType.HANDLE), req("local_iov", ArgType.IOV), opt("user_cookie", ArgType.INT),
                req("remote_iov", ArgType.RMR), req("immediate_data", ArgType.INT),
                flags("completion_flags", Dat.COMPLETION_FLAGS, false));
        add("dat_ib_post_fetch_and_add", POST_REQUEST, "op", none, "Post an IB atomic Fetch and Add (DAT IB extension): add"
                + " add_value to the 64-bit value at remote_iov; its original value lands in the 8-byte local_iov",
                req("ep", ArgType.HANDLE), req("add_value", ArgType.INT), req("local_iov", ArgType.IOV),
                opt("user_cookie", ArgType.INT), req("remote_iov", ArgType.RMR),
                flags("completion_flags", Dat.COMPLETION_FLAGS, false));
        add("dat_ib_post_cmp_and_swap", POST_REQUEST, "op", none, "Post an IB atomic Compare and Swap (DAT IB extension): if"
                + " the 64-bit value at remote_iov equals cmp_value, store swap_value; the original value lands in the"
                + " 8-byte local_iov", req("ep", ArgType.HANDLE), req("cmp_value", ArgType.INT),
                req("swap_value", ArgType.INT), req("local_iov", ArgType.IOV), opt("user_cookie", ArgType.INT),
                req("remote_iov", ArgType.RMR), flags("completion_flags", Dat.COMPLETION_FLAGS, false));
        add("dat_ep_create_with_srq", CALL, "ep", none, "Create an endpoint whose receives come from a shared receive"
                + " queue", req("ia", ArgType.HANDLE), req("pz", ArgType.HANDLE), req("recv_evd", ArgType.HANDLE),
                req("request_evd", ArgType.HANDLE), req("connect_evd", ArgType.HANDLE), req("srq", ArgType.HANDLE),
                opt("ep_attr", ArgType.EP_ATTR));
        add("dat_srq_create", CALL, "srq", none, "Create a shared receive queue (low_watermark must be 0,"
                + " DAT_SRQ_LW_DEFAULT)", req("ia", ArgType.HANDLE), req("pz", ArgType.HANDLE),
                req("srq_attr", ArgType.SRQ_ATTR));
        add("dat_srq_free", CALL, null, none, "Free a shared receive queue", req("srq", ArgType.HANDLE));
        add("dat_srq_post_recv", POST_RECEIVE, "op", none, "Post a receive any endpoint of the SRQ may take",
                req("srq", ArgType.HANDLE), req("local_iov", ArgType.IOV), opt("user_cookie", ArgType.INT));
        add("dat_srq_resize", CALL, null, none, "Change an SRQ's max_recv_dtos without losing receives",
                req("srq", ArgType.HANDLE), req("srq_max_recv_dto", ArgType.INT));
        add("dat_srq_set_lw", CALL, null, none, "Set an SRQ's low watermark and arm its asynchronous event",
                req("srq", ArgType.HANDLE), req("low_watermark", ArgType.INT));
        add("mem_write", NONE, null, none, "The consumer's CPU writes bytes into a registered region",
                req("lmr", ArgType.HANDLE), opt("offset", ArgType.SIZE), req("data", ArgType.DATA));
        add("mem_read", NONE, null, List.of("data", "stale"), "The consumer's CPU reads bytes of a registered region",
                req("lmr", ArgType.HANDLE), opt("offset", ArgType.SIZE), req("length", ArgType.SIZE));
        add("sleep", NONE, null, none, "The consumer computes for a while", req("time", ArgType.DURATION));
    }

    /**
     * Looks up a call.
     *
     * @param name the call's name
     * @return its declaration, or null if scenarios cannot make it
     */
    public static CallSpec get(String name) {
        return CALLS.get(name);
    }

    /** Returns every call in catalogue order. */
    public static Map<String, CallSpec> all() {
        return java.util.Collections.unmodifiableMap(CALLS);
    }
}

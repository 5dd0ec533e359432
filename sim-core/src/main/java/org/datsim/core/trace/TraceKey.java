package org.datsim.core.trace;

/**
 * Every attribute key of the run trace {@code events.jsonl}, declared once with its meaning, its JSON type and,
 * for a number with one, its unit. Models set these with {@link TraceEvent#attr(String, long)} and its kin, viz
 * reads them back; {@link TraceSchema} says which kinds may carry which keys and checks a line against that.
 *
 * <p>The standard fields ({@code t_ps}, {@code kind}, {@code host}, {@code ep}, {@code op}, {@code cookie},
 * {@code call}, {@code ret}, {@code status}) have their own setters on {@link TraceEvent} and their names here
 * only for readers of the JSON form. Every constant is a compile-time {@code String} constant: interned, so
 * {@link TraceEvent}'s identity-first key comparison costs what it did with literals.
 */
public final class TraceKey {

    /** Standard field: the simulated time (integer, in picoseconds). */
    public static final String T_PS = "t_ps";
    /** Standard field: the line's {@link TraceKind kind} (string). */
    public static final String KIND = "kind";
    /** Standard field: the node it happened on, a host or a switch (string). */
    public static final String HOST = "host";
    /** Standard field: the endpoint, by its name on its host (string). */
    public static final String EP = "ep";
    /** Standard field: the run-unique id of a posted operation (integer). */
    public static final String OP = "op";
    /** Standard field: the operation's user cookie (integer). */
    public static final String COOKIE = "cookie";
    /** Standard field: the DAT call of a {@code call} line (string). */
    public static final String CALL = "call";
    /** Standard field: a call's DAT_RETURN type name (string). */
    public static final String RET = "ret";
    /** Standard field: a DTO completion status, e.g. DAT_DTO_SUCCESS (string). */
    public static final String STATUS = "status";

    /** A call's DAT_RETURN subtype name, e.g. DAT_INVALID_HANDLE_EP (string). */
    public static final String SUBTYPE = "subtype";
    /** The consumer process (a scenario process or a bridged program) (string). */
    public static final String PROCESS = "process";
    /** The scenario step's JSON path (string). */
    public static final String STEP = "step";
    /** The iteration of the process's repeat block: its loop variable and value ("i=0") or number ("#0") (string). */
    public static final String ITERATION = "iteration";
    /** An EVD's name (string). */
    public static final String EVD = "evd";
    /** Events left on the EVD after a wait or dequeue (integer). */
    public static final String NMORE = "nmore";
    /** Dat_registry_list_providers: how many providers the registry holds (integer). */
    public static final String NUMBER_ENTRIES = "number_entries";
    /** Dat_registry_list_providers: the providers' names, comma-separated (string). */
    public static final String IA_NAMES = "ia_names";
    /**
     * A CM message type (REQ, REP, RTU, REJ, DREQ, DREP), or a text: a failed expectation's, a query's answer
     * (string).
     */
    public static final String MESSAGE = "message";
    /** The RMR context a dat_rmr_bind returned (integer). */
    public static final String RMR_CONTEXT = "rmr_context";
    /** An operation's kind: send, recv, rdma_write, rdma_read, rmr_bind, fetch_add, cmp_swap (string). */
    public static final String OPCODE = "opcode";
    /** A length in bytes (an operation's, a packet's on the wire, a memory access's) (integer, in bytes). */
    public static final String BYTES = "bytes";
    /** The DAT completion flags of a post, by name (string). */
    public static final String FLAGS = "flags";
    /** True on a post the provider made inline (absent, not false, otherwise) (boolean). */
    public static final String INLINE = "inline";
    /** The 32-bit immediate data of a write-with-immediate (integer). */
    public static final String IMMEDIATE = "immediate";
    /** A shared receive queue's name (string). */
    public static final String SRQ = "srq";
    /** The op ids an operation waits for (array of integers). */
    public static final String WAITING_FOR = "waiting_for";
    /** Why it happened, in words or a code (ack_timeout, buffer_full, barrier fence, ...) (string). */
    public static final String REASON = "reason";
    /** A packet's kind: send, rdma_write, read_request, read_response, atomic, atomic_ack, ack, nak, cm (string). */
    public static final String PACKET = "packet";
    /** How many packets the message has (integer). */
    public static final String PACKETS = "packets";
    /** A memory address (integer). */
    public static final String ADDRESS = "address";
    /** The op id of the receive a Send consumed (integer). */
    public static final String RECV_OP = "recv_op";
    /** True when DAT_COMPLETION_SUPPRESS_FLAG hid a successful completion (boolean). */
    public static final String SUPPRESSED = "suppressed";
    /** The op id an earlier-finished operation's completion waited for (rule 2) (integer). */
    public static final String HELD_BEHIND = "held_behind";
    /** When the transport finished an operation whose completion was held (integer, in picoseconds). */
    public static final String FINISHED_PS = "finished_ps";
    /** The op id of the earlier RDMA Read whose unfilled memory a Send or Write carried (rule 19) (integer). */
    public static final String OVERTOOK_READ = "overtook_read";
    /** A DAT event number's name (string). */
    public static final String EVENT = "event";
    /**
     * A DTO completion's transferred length (integer, in bytes). Spelled as the field of DAT's
     * {@code DAT_DTO_COMPLETION_EVENT_DATA} is, with the spec's typo: the output format keeps it, so existing
     * traces and readers stay valid. Declared here only; never spell it again.
     */
    public static final String TRANSFERED_LENGTH = "transfered_length";
    /** The immediate data of a DAT_IB_DTO_EVENT (integer). */
    public static final String IMMEDIATE_DATA = "immediate_data";
    /** A connection request's name (string). */
    public static final String CR = "cr";
    /** An RMR's name (the bind's completion) (string). */
    public static final String RMR = "rmr";
    /** When the event was queued on its EVD (integer, in picoseconds). */
    public static final String QUEUED_PS = "queued_ps";
    /** The endpoint's state after the event (string). */
    public static final String STATE = "state";
    /** A connection qualifier (integer). */
    public static final String CONN_QUAL = "conn_qual";
    /** The connection request dat_cr_handoff moved (string). */
    public static final String HANDED_OFF_FROM = "handed_off_from";
    /** A reserved service point's name (string). */
    public static final String RSP = "rsp";
    /** Receives left in the SRQ (integer). */
    public static final String AVAILABLE = "available";
    /** Receives the endpoint holds from its SRQ at a soft high watermark (integer). */
    public static final String BUFFERS = "buffers";
    /** The host a packet or CM message came from (string). */
    public static final String FROM = "from";
    /** True for a REQ or REP sent again whose first sending had been answered (boolean). */
    public static final String DUPLICATE = "duplicate";
    /** How many times it has been tried again, 1 for the first (integer). */
    public static final String ATTEMPT = "attempt";
    /** The host a packet or CM message goes to (string). */
    public static final String TO = "to";
    /** A connection's CM communication id (integer). */
    public static final String COMM_ID = "comm_id";
    /** How many times a CM message was sent again before it was given up (integer). */
    public static final String RESENDS = "resends";
    /** Which on-chip cache missed: qpc or mtt (string). */
    public static final String CACHE = "cache";
    /** A cache entry's key: the QP's index on its HCA (qpc) or the page's address (mtt) (integer). */
    public static final String KEY = "key";
    /** The stall of a cache miss (integer, in picoseconds). */
    public static final String PENALTY_PS = "penalty_ps";
    /** Translation entries a miss's read brought into the cache (integer). */
    public static final String FETCHED = "fetched";
    /** True on a miss that waits for another read already under way (boolean). */
    public static final String IN_FLIGHT = "in_flight";
    /** A switch's name (string). */
    public static final String SWITCH = "switch";
    /** A port, FROM->TO (#2, #3, ... for a second or third link between the two nodes) (string). */
    public static final String PORT = "port";
    /** A message's sequence number on its requester's endpoint, from 0 (integer). */
    public static final String SEQ = "seq";
    /** A place in a sequence, from 0 (a packet in its message, a choice in the vector) (integer). */
    public static final String INDEX = "index";
    /** An LMR's name (string). */
    public static final String LMR = "lmr";
    /** True when a CPU read returned bytes older than memory holds (boolean). */
    public static final String STALE = "stale";
    /** The first 32 bytes a CPU read, in hex (string). */
    public static final String DATA_HEX = "data_hex";
    /** Whether a CPU read's bytes are those the step expected (boolean). */
    public static final String MATCH = "match";
    /** An asynchronous error's name or description (string). */
    public static final String ERROR = "error";
    /** The event an EVD overflow lost (string). */
    public static final String LOST_EVENT = "lost_event";
    /** 1 while a port is paused by PFC, 0 otherwise (integer). */
    public static final String PAUSED = "paused";
    /** Bytes queued at an output port (integer, in bytes). */
    public static final String QUEUE_BYTES = "queue_bytes";
    /** 1 while a switch input is pausing its upstream sender, 0 otherwise (integer). */
    public static final String PAUSING = "pausing";
    /** ECN marks a port has made so far (integer). */
    public static final String ECN_MARKS = "ecn_marks";
    /** When a flow started, its arrival in the flow list (integer, in ps). */
    public static final String START_PS = "start_ps";
    /** A flow's completion time, from its start to its completion at the source (integer, in ps). */
    public static final String FCT_PS = "fct_ps";
    /** A port's share of its line rate used over the last sample interval, 0 to 1 (number, in fraction). */
    public static final String UTILISATION = "utilisation";
    /** A CNO's name (string). */
    public static final String CNO = "cno";
    /** Consumers waiting on the CNO (integer). */
    public static final String WAITERS = "waiters";
    /** The CNO's proxy agent (string). */
    public static final String PROXY_AGENT = "proxy_agent";
    /** What the registry was asked (string). */
    public static final String ACTION = "action";
    /** An interface adapter's name (string). */
    public static final String IA_NAME = "ia_name";
    /** A choice point's name, e.g. evd.reap_order (string). */
    public static final String POINT = "point";
    /** The DAT rule a choice point stands for (string). */
    public static final String RULE = "rule";
    /** How many alternatives a choice point has (integer). */
    public static final String ALTERNATIVES = "alternatives";
    /** The alternative taken; 0 the timing model's (integer). */
    public static final String VALUE = "value";

    private TraceKey() {}
}

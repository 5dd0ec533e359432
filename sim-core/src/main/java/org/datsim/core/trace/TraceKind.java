package org.datsim.core.trace;

/**
 * Every kind of line of the run trace {@code events.jsonl}, declared once: models emit these constants and viz
 * reads them, so a renamed kind is a compile error and not a blank view. {@link TraceSchema} says which
 * {@link TraceKey keys} each kind may carry; docs/trace-format.md tells each in full (TraceFormatDocTest keeps the
 * two in step).
 *
 * <p>The constants are compile-time {@code String} constants, so they are interned and compare by identity as
 * cheaply as the literals they replace.
 */
public final class TraceKind {

    /** A consumer's DAT call returned (t is the return time, after the call's CPU overhead). */
    public static final String CALL = "call";
    /** A DTO (or an SRQ receive, an RMR bind) was accepted by the provider. */
    public static final String POST = "post";
    /** The HCA's send engine began processing an operation. */
    public static final String START = "start";
    /** An operation is held behind earlier operations of its endpoint (a fence, strict read ordering). */
    public static final String FENCE_WAIT = "fence_wait";
    /** An RDMA Read or atomic is held because the endpoint's read credits are in use (rule 49). */
    public static final String CREDIT_WAIT = "credit_wait";
    /** The first bit of a message's first packet left the host. */
    public static final String TX_START = "tx_start";
    /** The last bit of a message's last packet left the host. */
    public static final String TX_END = "tx_end";
    /** The last byte of an operation's data was written into the target memory. */
    public static final String PLACE = "place";
    /** A completion was queued on its EVD. */
    public static final String COMPLETE = "complete";
    /** The consumer took an event off an EVD. */
    public static final String DEQUEUE = "dequeue";
    /** A non-DTO event (connection, SRQ watermark, broken endpoint) was queued. */
    public static final String EVENT = "event";
    /** The connection manager handled a message (REQ, REP, RTU, REJ, DREQ, DREP). */
    public static final String CM = "cm";
    /** The connection manager sent a REQ, REP or DREQ again. */
    public static final String CM_RETRY = "cm_retry";
    /** The connection manager gave a REQ, REP or DREQ up after its last resend. */
    public static final String CM_TIMEOUT = "cm_timeout";
    /** The HCA missed its QP-context or translation cache and stalls for the miss. */
    public static final String CACHE_MISS = "cache_miss";
    /** A responder refused a Send because no receive was posted. */
    public static final String RNR_NAK = "rnr_nak";
    /** The requester went back to an operation and sends it and the later ones again (go-back-N). */
    public static final String RETRANSMIT = "retransmit";
    /** A switch dropped a packet on arrival. */
    public static final String DROP = "drop";
    /** A consumer's CPU wrote registered memory. */
    public static final String MEM_WRITE = "mem_write";
    /** A consumer's CPU read registered memory (perhaps stale bytes). */
    public static final String MEM_READ = "mem_read";
    /** An asynchronous error: an EVD overflow, a broken connection. */
    public static final String ERROR = "error";
    /** A PFC pause or resume took effect at a port ({@code trace.port_events}). */
    public static final String PFC = "pfc";
    /** The bytes queued at a switch's (or host's) output port changed ({@code trace.port_events}). */
    public static final String PORT_QUEUE = "port_queue";
    /**
     * A workload's flow finished (t is its completion at its source HCA; op is its index in the flow list, host its
     * source).
     */
    public static final String FLOW = "flow";
    /** A switch port sampled every {@code trace.port_sample_interval}. */
    public static final String PORT_SAMPLE = "port_sample";
    /** A switch marked a packet with ECN congestion experienced ({@code trace.port_events}). */
    public static final String ECN_MARK = "ecn_mark";
    /** An expectation of the scenario did not hold. */
    public static final String EXPECT_FAILED = "expect_failed";
    /** An endpoint of a shared receive queue took the SRQ's oldest receive (rule 36). */
    public static final String SRQ_TAKE = "srq_take";
    /** An EVD notified its CNO. */
    public static final String CNO_NOTIFY = "cno_notify";
    /** The DAT registry was asked for a provider. */
    public static final String REGISTRY = "registry";
    /** A run with {@code --choices} reached a choice point. */
    public static final String CHOICE = "choice";

    private TraceKind() {}
}

package org.datsim.fabric.dat;

/**
 * DAT 2.0 constants other than returns, with the names and values of {@code dat2/dat.h} and {@code dat2/udat.h}
 * (see {@code shared/reference/dat-api-facts.md}).
 */
public final class Dat {

    private Dat() {
    }

    // Completion flags (DAT_COMPLETION_FLAGS)
    /** DAT_COMPLETION_DEFAULT_FLAG. */
    public static final int COMPLETION_DEFAULT_FLAG = 0x00;
    /** DAT_COMPLETION_SUPPRESS_FLAG: no event if the DTO succeeds. */
    public static final int COMPLETION_SUPPRESS_FLAG = 0x01;
    /** DAT_COMPLETION_SOLICITED_WAIT_FLAG. */
    public static final int COMPLETION_SOLICITED_WAIT_FLAG = 0x02;
    /** DAT_COMPLETION_UNSIGNALLED_FLAG. */
    public static final int COMPLETION_UNSIGNALLED_FLAG = 0x04;
    /** DAT_COMPLETION_BARRIER_FENCE_FLAG. */
    public static final int COMPLETION_BARRIER_FENCE_FLAG = 0x08;
    /** DAT_COMPLETION_EVD_THRESHOLD_FLAG. */
    public static final int COMPLETION_EVD_THRESHOLD_FLAG = 0x10;

    /** The completion flags by name. */
    public static final NamedValues COMPLETION_FLAGS = new NamedValues("completion flag",
            "DAT_COMPLETION_DEFAULT_FLAG", 0x00, "DAT_COMPLETION_SUPPRESS_FLAG", 0x01,
            "DAT_COMPLETION_SOLICITED_WAIT_FLAG", 0x02, "DAT_COMPLETION_UNSIGNALLED_FLAG", 0x04,
            "DAT_COMPLETION_BARRIER_FENCE_FLAG", 0x08, "DAT_COMPLETION_EVD_THRESHOLD_FLAG", 0x10,
            "DAT_COMPLETION_LMR_INVALIDATE_FENCE_FLAG", 0x20);

    // Memory privileges (DAT_MEM_PRIV_FLAGS)
    /** DAT_MEM_PRIV_LOCAL_READ_FLAG. */
    public static final int MEM_PRIV_LOCAL_READ = 0x01;
    /** DAT_MEM_PRIV_REMOTE_READ_FLAG. */
    public static final int MEM_PRIV_REMOTE_READ = 0x02;
    /** DAT_MEM_PRIV_LOCAL_WRITE_FLAG. */
    public static final int MEM_PRIV_LOCAL_WRITE = 0x10;
    /** DAT_MEM_PRIV_REMOTE_WRITE_FLAG. */
    public static final int MEM_PRIV_REMOTE_WRITE = 0x20;
    /** DAT_MEM_PRIV_ALL_FLAG. */
    public static final int MEM_PRIV_ALL = 0x33;
    /**
     * DAT_IB_MEM_PRIV_REMOTE_ATOMIC (dat_ib_extensions.h, = DAT_MEM_PRIV_EXTENSION_BASE): the region may be the target
     * of the IB atomics dat_ib_post_fetch_and_add and dat_ib_post_cmp_and_swap.
     */
    public static final int IB_MEM_PRIV_REMOTE_ATOMIC = 0x40;

    /** The memory privilege flags by name. */
    public static final NamedValues MEM_PRIV = new NamedValues("memory privilege flag",
            "DAT_MEM_PRIV_NONE_FLAG", 0x00, "DAT_MEM_PRIV_LOCAL_READ_FLAG", 0x01,
            "DAT_MEM_PRIV_REMOTE_READ_FLAG", 0x02, "DAT_MEM_PRIV_LOCAL_WRITE_FLAG", 0x10,
            "DAT_MEM_PRIV_REMOTE_WRITE_FLAG", 0x20, "DAT_MEM_PRIV_ALL_FLAG", 0x33,
            "DAT_MEM_PRIV_READ_FLAG", 0x03, "DAT_MEM_PRIV_WRITE_FLAG", 0x30,
            "DAT_IB_MEM_PRIV_REMOTE_ATOMIC", 0x40);

    // Event numbers (DAT_EVENT_NUMBER)
    /** DAT_DTO_COMPLETION_EVENT. */
    public static final int DTO_COMPLETION_EVENT = 0x00001;
    /** DAT_RMR_BIND_COMPLETION_EVENT. */
    public static final int RMR_BIND_COMPLETION_EVENT = 0x01001;
    /** DAT_CONNECTION_REQUEST_EVENT. */
    public static final int CONNECTION_REQUEST_EVENT = 0x02001;
    /** DAT_CONNECTION_EVENT_ESTABLISHED. */
    public static final int CONNECTION_EVENT_ESTABLISHED = 0x04001;
    /** DAT_CONNECTION_EVENT_PEER_REJECTED. */
    public static final int CONNECTION_EVENT_PEER_REJECTED = 0x04002;
    /** DAT_CONNECTION_EVENT_NON_PEER_REJECTED. */
    public static final int CONNECTION_EVENT_NON_PEER_REJECTED = 0x04003;
    /** DAT_CONNECTION_EVENT_ACCEPT_COMPLETION_ERROR. */
    public static final int CONNECTION_EVENT_ACCEPT_COMPLETION_ERROR = 0x04004;
    /** DAT_CONNECTION_EVENT_DISCONNECTED. */
    public static final int CONNECTION_EVENT_DISCONNECTED = 0x04005;
    /** DAT_CONNECTION_EVENT_BROKEN. */
    public static final int CONNECTION_EVENT_BROKEN = 0x04006;
    /** DAT_CONNECTION_EVENT_TIMED_OUT. */
    public static final int CONNECTION_EVENT_TIMED_OUT = 0x04007;
    /** DAT_CONNECTION_EVENT_UNREACHABLE. */
    public static final int CONNECTION_EVENT_UNREACHABLE = 0x04008;
    /** DAT_ASYNC_ERROR_EVD_OVERFLOW. */
    public static final int ASYNC_ERROR_EVD_OVERFLOW = 0x08001;
    /** DAT_ASYNC_ERROR_EP_BROKEN. */
    public static final int ASYNC_ERROR_EP_BROKEN = 0x08003;
    /** DAT_SOFTWARE_EVENT. */
    public static final int SOFTWARE_EVENT = 0x10001;
    /**
     * DAT_IB_DTO_EVENT (dat_ib_extensions.h, = DAT_IB_EXTENSION_RANGE_BASE): the completion of an IB extended DTO
     * (the atomics); its operation is a DAT_IB_DTOS value and its extension data carries a DAT_IB_EXT_TYPE.
     */
    public static final int IB_DTO_EVENT = 0x40000;

    /** The event numbers by name. */
    public static final NamedValues EVENTS = new NamedValues("event number",
            "DAT_DTO_COMPLETION_EVENT", 0x00001, "DAT_RMR_BIND_COMPLETION_EVENT", 0x01001,
            "DAT_CONNECTION_REQUEST_EVENT", 0x02001, "DAT_CONNECTION_EVENT_ESTABLISHED", 0x04001,
            "DAT_CONNECTION_EVENT_PEER_REJECTED", 0x04002, "DAT_CONNECTION_EVENT_NON_PEER_REJECTED", 0x04003,
            "DAT_CONNECTION_EVENT_ACCEPT_COMPLETION_ERROR", 0x04004, "DAT_CONNECTION_EVENT_DISCONNECTED", 0x04005,
            "DAT_CONNECTION_EVENT_BROKEN", 0x04006, "DAT_CONNECTION_EVENT_TIMED_OUT", 0x04007,
            "DAT_CONNECTION_EVENT_UNREACHABLE", 0x04008, "DAT_ASYNC_ERROR_EVD_OVERFLOW", 0x08001,
            "DAT_ASYNC_ERROR_IA_CATASTROPHIC", 0x08002, "DAT_ASYNC_ERROR_EP_BROKEN", 0x08003,
            "DAT_ASYNC_ERROR_TIMED_OUT", 0x08004, "DAT_ASYNC_ERROR_PROVIDER_INTERNAL_ERROR", 0x08005,
            "DAT_HA_DOWN_TO_1", 0x08101, "DAT_HA_UP_TO_MULTI_PATH", 0x08102, "DAT_SOFTWARE_EVENT", 0x10001,
            "DAT_IB_DTO_EVENT", 0x40000);

    // DTO completion status (DAT_DTO_COMPLETION_STATUS)
    /** DAT_DTO_SUCCESS. */
    public static final int DTO_SUCCESS = 0;
    /** DAT_DTO_ERR_FLUSHED. */
    public static final int DTO_ERR_FLUSHED = 1;
    /** DAT_DTO_ERR_LOCAL_LENGTH. */
    public static final int DTO_ERR_LOCAL_LENGTH = 2;
    /** DAT_DTO_ERR_LOCAL_EP. */
    public static final int DTO_ERR_LOCAL_EP = 3;
    /** DAT_DTO_ERR_LOCAL_PROTECTION. */
    public static final int DTO_ERR_LOCAL_PROTECTION = 4;
    /** DAT_DTO_ERR_BAD_RESPONSE. */
    public static final int DTO_ERR_BAD_RESPONSE = 5;
    /** DAT_DTO_FAILURE: an alias of DAT_DTO_ERR_FLUSHED's value, dapl's status for a completion it cannot map. */
    public static final int DTO_FAILURE = 1;
    /** DAT_DTO_ERR_REMOTE_ACCESS. */
    public static final int DTO_ERR_REMOTE_ACCESS = 6;
    /** DAT_DTO_ERR_REMOTE_RESPONDER. */
    public static final int DTO_ERR_REMOTE_RESPONDER = 7;
    /** DAT_DTO_ERR_TRANSPORT. */
    public static final int DTO_ERR_TRANSPORT = 8;
    /** DAT_DTO_ERR_RECEIVER_NOT_READY. */
    public static final int DTO_ERR_RECEIVER_NOT_READY = 9;

    /** The DTO completion statuses by name. */
    public static final NamedValues DTO_STATUS = new NamedValues("DTO completion status",
            "DAT_DTO_SUCCESS", 0, "DAT_DTO_ERR_FLUSHED", 1, "DAT_DTO_ERR_LOCAL_LENGTH", 2,
            "DAT_DTO_ERR_LOCAL_EP", 3, "DAT_DTO_ERR_LOCAL_PROTECTION", 4, "DAT_DTO_ERR_BAD_RESPONSE", 5,
            "DAT_DTO_ERR_REMOTE_ACCESS", 6, "DAT_DTO_ERR_REMOTE_RESPONDER", 7, "DAT_DTO_ERR_TRANSPORT", 8,
            "DAT_DTO_ERR_RECEIVER_NOT_READY", 9, "DAT_DTO_ERR_PARTIAL_PACKET", 10,
            "DAT_RMR_OPERATION_FAILED", 11, "DAT_DTO_ERR_LOCAL_MM_ERROR", 12);

    // DTO operations (DAT_DTOS)
    /** DAT_DTO_SEND. */
    public static final int DTO_SEND = 0;
    /** DAT_DTO_RDMA_WRITE. */
    public static final int DTO_RDMA_WRITE = 1;
    /** DAT_DTO_RDMA_READ. */
    public static final int DTO_RDMA_READ = 2;
    /** DAT_DTO_RECEIVE. */
    public static final int DTO_RECEIVE = 3;
    /** DAT_DTO_BIND_MW. */
    public static final int DTO_BIND_MW = 5;
    /**
     * DAT_IB_DTO_RDMA_WRITE_IMMED (DAT_DTO_EXTENSION_BASE, dat_ib_extensions.h): the requester's completion of an RDMA
     * Write with immediate data.
     */
    public static final int IB_DTO_RDMA_WRITE_IMMED = 8;
    /**
     * DAT_IB_DTO_RECV_IMMED (DAT_DTO_EXTENSION_BASE + 1): a receive consumed by an incoming RDMA Write with immediate
     * data (its transfered_length is the Write's, its extension data the immediate data).
     */
    public static final int IB_DTO_RECV_IMMED = 9;
    /** DAT_IB_DTO_FETCH_ADD (DAT_DTO_EXTENSION_BASE + 2, dat_ib_extensions.h): an IB atomic Fetch and Add. */
    public static final int IB_DTO_FETCH_ADD = 10;
    /** DAT_IB_DTO_CMP_SWAP (DAT_DTO_EXTENSION_BASE + 3, dat_ib_extensions.h): an IB atomic Compare and Swap. */
    public static final int IB_DTO_CMP_SWAP = 11;
    /** DAT_IB_FETCH_AND_ADD (DAT_IB_EXT_TYPE): the extension type of a Fetch and Add's completion event. */
    public static final int IB_EXT_FETCH_AND_ADD = 0;
    /** DAT_IB_CMP_AND_SWAP (DAT_IB_EXT_TYPE): the extension type of a Compare and Swap's completion event. */
    public static final int IB_EXT_CMP_AND_SWAP = 1;
    /** DAT_IB_RDMA_WRITE_IMMED (DAT_IB_EXT_TYPE): the requester's completion of an RDMA Write with immediate. */
    public static final int IB_EXT_RDMA_WRITE_IMMED = 2;
    /**
     * DAT_IB_RDMA_WRITE_IMMED_DATA (DAT_IB_EXT_TYPE): the receive completion of an incoming RDMA Write with immediate
     * (dapl's cqe_to_event_extension for OP_RECEIVE_IMM; dtest -w checks for it).
     */
    public static final int IB_EXT_RDMA_WRITE_IMMED_DATA = 3;
    /** DAT_RMR_OPERATION_FAILED: an RMR bind failed after dat_rmr_bind returned. */
    public static final int RMR_OPERATION_FAILED = 11;

    /** The DTO operation codes by name. */
    public static final NamedValues DTO_OPS = new NamedValues("DTO operation",
            "DAT_DTO_SEND", 0, "DAT_DTO_RDMA_WRITE", 1, "DAT_DTO_RDMA_READ", 2, "DAT_DTO_RECEIVE", 3,
            "DAT_DTO_RECEIVE_WITH_INVALIDATE", 4, "DAT_DTO_BIND_MW", 5, "DAT_IB_DTO_RDMA_WRITE_IMMED", 8,
            "DAT_IB_DTO_RECV_IMMED", 9, "DAT_IB_DTO_FETCH_ADD", 10, "DAT_IB_DTO_CMP_SWAP", 11);

    // Endpoint states (DAT_EP_STATE)
    /** DAT_EP_STATE_UNCONNECTED. */
    public static final int EP_STATE_UNCONNECTED = 0;
    /** DAT_EP_STATE_RESERVED. */
    public static final int EP_STATE_RESERVED = 2;
    /** DAT_EP_STATE_PASSIVE_CONNECTION_PENDING. */
    public static final int EP_STATE_PASSIVE_CONNECTION_PENDING = 4;
    /** DAT_EP_STATE_ACTIVE_CONNECTION_PENDING. */
    public static final int EP_STATE_ACTIVE_CONNECTION_PENDING = 6;
    /**
     * DAT_EP_STATE_TENTATIVE_CONNECTION_PENDING: a provider-created endpoint of a PSP with DAT_PSP_PROVIDER_FLAG,
     * which this provider does not support, so no endpoint reaches it; named for the checks that refuse it.
     */
    public static final int EP_STATE_TENTATIVE_CONNECTION_PENDING = 7;
    /** DAT_EP_STATE_CONNECTED. */
    public static final int EP_STATE_CONNECTED = 9;
    /** DAT_EP_STATE_DISCONNECT_PENDING. */
    public static final int EP_STATE_DISCONNECT_PENDING = 10;
    /** DAT_EP_STATE_DISCONNECTED (also DAT_EP_STATE_ERROR). */
    public static final int EP_STATE_DISCONNECTED = 11;
    /** DAT_EP_STATE_COMPLETION_PENDING. */
    public static final int EP_STATE_COMPLETION_PENDING = 12;

    /** The endpoint states by name. */
    public static final NamedValues EP_STATES = new NamedValues("endpoint state",
            "DAT_EP_STATE_UNCONNECTED", 0, "DAT_EP_STATE_UNCONFIGURED_UNCONNECTED", 1, "DAT_EP_STATE_RESERVED", 2,
            "DAT_EP_STATE_UNCONFIGURED_RESERVED", 3, "DAT_EP_STATE_PASSIVE_CONNECTION_PENDING", 4,
            "DAT_EP_STATE_UNCONFIGURED_PASSIVE", 5, "DAT_EP_STATE_ACTIVE_CONNECTION_PENDING", 6,
            "DAT_EP_STATE_TENTATIVE_CONNECTION_PENDING", 7, "DAT_EP_STATE_UNCONFIGURED_TENTATIVE", 8,
            "DAT_EP_STATE_CONNECTED", 9, "DAT_EP_STATE_DISCONNECT_PENDING", 10, "DAT_EP_STATE_DISCONNECTED", 11,
            "DAT_EP_STATE_COMPLETION_PENDING", 12, "DAT_EP_STATE_CONNECTED_SINGLE_PATH", 13,
            "DAT_EP_STATE_CONNECTED_MULTI_PATH", 14);

    // EVD stream flags (DAT_EVD_FLAGS)
    /** DAT_EVD_SOFTWARE_FLAG. */
    public static final int EVD_SOFTWARE_FLAG = 0x001;
    /** DAT_EVD_CR_FLAG. */
    public static final int EVD_CR_FLAG = 0x010;
    /** DAT_EVD_DTO_FLAG. */
    public static final int EVD_DTO_FLAG = 0x020;
    /** DAT_EVD_CONNECTION_FLAG. */
    public static final int EVD_CONNECTION_FLAG = 0x040;
    /** DAT_EVD_RMR_BIND_FLAG. */
    public static final int EVD_RMR_BIND_FLAG = 0x080;
    /** DAT_EVD_ASYNC_FLAG. */
    public static final int EVD_ASYNC_FLAG = 0x100;
    /** DAT_EVD_DEFAULT_FLAG. */
    public static final int EVD_DEFAULT_FLAG = 0x1F0;

    /** The EVD stream flags by name. */
    public static final NamedValues EVD_FLAGS = new NamedValues("EVD flag",
            "DAT_EVD_SOFTWARE_FLAG", 0x001, "DAT_EVD_CR_FLAG", 0x010, "DAT_EVD_DTO_FLAG", 0x020,
            "DAT_EVD_CONNECTION_FLAG", 0x040, "DAT_EVD_RMR_BIND_FLAG", 0x080, "DAT_EVD_ASYNC_FLAG", 0x100,
            "DAT_EVD_DEFAULT_FLAG", 0x1F0);

    // Handle types (DAT_HANDLE_TYPE)
    /** The handle types by name. */
    public static final NamedValues HANDLE_TYPES = new NamedValues("handle type",
            "DAT_HANDLE_TYPE_CR", 0, "DAT_HANDLE_TYPE_EP", 1, "DAT_HANDLE_TYPE_EVD", 2, "DAT_HANDLE_TYPE_IA", 3,
            "DAT_HANDLE_TYPE_LMR", 4, "DAT_HANDLE_TYPE_PSP", 5, "DAT_HANDLE_TYPE_PZ", 6, "DAT_HANDLE_TYPE_RMR", 7,
            "DAT_HANDLE_TYPE_RSP", 8, "DAT_HANDLE_TYPE_CNO", 9, "DAT_HANDLE_TYPE_SRQ", 10,
            "DAT_HANDLE_TYPE_CSP", 11);

    // Close and PSP flags
    /** DAT_CLOSE_ABRUPT_FLAG. */
    public static final int CLOSE_ABRUPT_FLAG = 0;
    /** DAT_CLOSE_GRACEFUL_FLAG. */
    public static final int CLOSE_GRACEFUL_FLAG = 1;

    /** The close flags by name. */
    public static final NamedValues CLOSE_FLAGS = new NamedValues("close flag",
            "DAT_CLOSE_ABRUPT_FLAG", 0, "DAT_CLOSE_GRACEFUL_FLAG", 1);

    /** The PSP flags by name. */
    public static final NamedValues PSP_FLAGS = new NamedValues("PSP flag",
            "DAT_PSP_CONSUMER_FLAG", 0, "DAT_PSP_PROVIDER_FLAG", 1);

    /** DAT_TIMEOUT_INFINITE, in microseconds. */
    public static final long TIMEOUT_INFINITE = 0xFFFFFFFFL;
}

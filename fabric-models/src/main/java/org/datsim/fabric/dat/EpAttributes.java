package org.datsim.fabric.dat;

/**
 * The DAT_EP_ATTR fields the provider honours. A null ep_attr at dat_ep_create gives {@link #defaults()}.
 *
 * @param maxMessageSize max_message_size in bytes
 * @param maxRdmaSize max_rdma_size in bytes
 * @param maxRecvDtos max_recv_dtos
 * @param maxRequestDtos max_request_dtos
 * @param maxRecvIov max_recv_iov
 * @param maxRequestIov max_request_iov
 * @param requestCompletionFlags request_completion_flags
 * @param recvCompletionFlags recv_completion_flags
 * @param maxRdmaReadIn max_rdma_read_in: RDMA Reads this endpoint serves at once as their target
 * @param maxRdmaReadOut max_rdma_read_out: RDMA Reads this endpoint has outstanding at once as their originator
 */
public record EpAttributes(long maxMessageSize, long maxRdmaSize, int maxRecvDtos, int maxRequestDtos,
        int maxRecvIov, int maxRequestIov, int requestCompletionFlags, int recvCompletionFlags, int maxRdmaReadIn,
        int maxRdmaReadOut) {

    /** The default number of RDMA Reads in each direction. */
    public static final int DEFAULT_RDMA_READS = 4;

    /**
     * Attributes with the default RDMA Read limits.
     *
     * @param maxMessageSize max_message_size in bytes
     * @param maxRdmaSize max_rdma_size in bytes
     * @param maxRecvDtos max_recv_dtos
     * @param maxRequestDtos max_request_dtos
     * @param maxRecvIov max_recv_iov
     * @param maxRequestIov max_request_iov
     * @param requestCompletionFlags request_completion_flags
     * @param recvCompletionFlags recv_completion_flags
     */
    public EpAttributes(long maxMessageSize, long maxRdmaSize, int maxRecvDtos, int maxRequestDtos, int maxRecvIov,
            int maxRequestIov, int requestCompletionFlags, int recvCompletionFlags) {
        this(maxMessageSize, maxRdmaSize, maxRecvDtos, maxRequestDtos, maxRecvIov, maxRequestIov,
                requestCompletionFlags, recvCompletionFlags, DEFAULT_RDMA_READS, DEFAULT_RDMA_READS);
    }

    /** The provider's default attributes (OFA dapl's defaults for queue depths and IOV sizes). */
    public static EpAttributes defaults() {
        return new EpAttributes(1L << 30, 1L << 30, 64, 64, 4, 4, Dat.COMPLETION_DEFAULT_FLAG,
                Dat.COMPLETION_DEFAULT_FLAG);
    }
}

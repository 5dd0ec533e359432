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
 */
public record EpAttributes(long maxMessageSize, long maxRdmaSize, int maxRecvDtos, int maxRequestDtos,
        int maxRecvIov, int maxRequestIov, int requestCompletionFlags, int recvCompletionFlags) {

    /** The provider's default attributes (OFA dapl's defaults for queue depths and IOV sizes). */
    public static EpAttributes defaults() {
        return new EpAttributes(1L << 30, 1L << 30, 64, 64, 4, 4, Dat.COMPLETION_DEFAULT_FLAG,
                Dat.COMPLETION_DEFAULT_FLAG);
    }
}

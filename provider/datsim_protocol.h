/*
 * Request codes of the bridge's protocol (docs/bridge.md). GENERATED from
 * org.datsim.scenario.bridge.Request by ProtocolHeader: do not edit; ProtocolHeaderTest fails when
 * this file is stale (regenerate: mvn -B -q -pl scenarios -am test -Dtest=ProtocolHeaderTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Ddatsim.protocol.write=true).
 */
#ifndef DATSIM_PROTOCOL_H
#define DATSIM_PROTOCOL_H

enum {
    C_HELLO = 1, /* hello */
    C_IA_OPEN = 2, /* dat_ia_open */
    C_IA_CLOSE = 3, /* dat_ia_close */
    C_IA_QUERY = 4, /* dat_ia_query */
    C_QUERY = 5, /* dat_*_query */
    C_SET_CTX = 6, /* dat_set_consumer_context */
    C_GET_CTX = 7, /* dat_get_consumer_context */
    C_HANDLE_TYPE = 8, /* dat_get_handle_type */
    C_PZ_CREATE = 9, /* dat_pz_create */
    C_PZ_FREE = 10, /* dat_pz_free */
    C_EVD_CREATE = 11, /* dat_evd_create */
    C_EVD_FREE = 12, /* dat_evd_free */
    C_EVD_WAIT = 13, /* dat_evd_wait */
    C_EVD_DEQUEUE = 14, /* dat_evd_dequeue */
    C_EVD_UNWAITABLE = 15, /* dat_evd_set_unwaitable */
    C_EVD_ENABLE = 16, /* dat_evd_enable */
    C_EVD_RESIZE = 17, /* dat_evd_resize */
    C_EVD_POST_SE = 18, /* dat_evd_post_se */
    C_EVD_MODIFY_CNO = 19, /* dat_evd_modify_cno */
    C_CNO_CREATE = 20, /* dat_cno_create */
    C_CNO_FREE = 21, /* dat_cno_free */
    C_CNO_WAIT = 22, /* dat_cno_wait */
    C_CNO_MODIFY_AGENT = 23, /* dat_cno_modify_agent */
    C_LMR_CREATE = 24, /* dat_lmr_create */
    C_LMR_FREE = 25, /* dat_lmr_free */
    C_LMR_SYNC = 26, /* dat_lmr_sync_rdma */
    C_RMR_CREATE = 27, /* dat_rmr_create */
    C_RMR_FREE = 28, /* dat_rmr_free */
    C_RMR_BIND = 29, /* dat_rmr_bind */
    C_EP_CREATE = 30, /* dat_ep_create */
    C_EP_FREE = 31, /* dat_ep_free */
    C_EP_CONNECT = 32, /* dat_ep_connect */
    C_EP_DUP_CONNECT = 33, /* dat_ep_dup_connect */
    C_EP_DISCONNECT = 34, /* dat_ep_disconnect */
    C_EP_RESET = 35, /* dat_ep_reset */
    C_EP_GET_STATUS = 36, /* dat_ep_get_status */
    C_POST_SEND = 37, /* dat_ep_post_send */
    C_POST_RECV = 38, /* dat_ep_post_recv */
    C_POST_READ = 39, /* dat_ep_post_rdma_read */
    C_POST_WRITE = 40, /* dat_ep_post_rdma_write */
    C_PSP_CREATE = 41, /* dat_psp_create */
    C_PSP_CREATE_ANY = 42, /* dat_psp_create_any */
    C_PSP_FREE = 43, /* dat_psp_free */
    C_RSP_CREATE = 44, /* dat_rsp_create */
    C_RSP_FREE = 45, /* dat_rsp_free */
    C_CR_ACCEPT = 46, /* dat_cr_accept */
    C_CR_REJECT = 47, /* dat_cr_reject */
    C_CR_HANDOFF = 48, /* dat_cr_handoff */
    C_SRQ_CREATE = 49, /* dat_srq_create */
    C_SRQ_FREE = 50, /* dat_srq_free */
    C_SRQ_POST_RECV = 51, /* dat_srq_post_recv */
    C_SRQ_RESIZE = 52, /* dat_srq_resize */
    C_SRQ_SET_LW = 53, /* dat_srq_set_lw */
    C_EP_RECV_QUERY = 54, /* dat_ep_recv_query */
    C_EP_SET_WATERMARK = 55, /* dat_ep_set_watermark */
    C_UNSUPPORTED = 56, /* unsupported */
    C_SIDE = 57, /* side */
    C_POST_WRITE_IMMED = 58, /* dat_ib_post_rdma_write_immed */
    C_POST_ATOMIC = 59 /* dat_ib_post_atomic */
};

#endif

package org.datsim.scenario.bridge;

import org.datsim.fabric.dat.EpAttributes;
import org.datsim.fabric.dat.LmrTriplet;
import org.datsim.fabric.dat.RmrTriplet;
import org.datsim.scenario.load.PostCall;

/**
 * A bridge request decoded once ({@link RequestDecoder}) into a typed record: the executor ({@link BridgeCalls}) and
 * the recorder of {@code serve --record} ({@link Recorder}) read its fields, never the frame. Handles are the
 * program's handle ids ({@code org.datsim.scenario.consumer.HandleTable}; 0 is DAT_HANDLE_NULL), resolved when the
 * call runs; numbers are the wire's values; I/O vectors are decoded into the provider's triplets. Each record is one
 * argument list (requests that take the same arguments share one, with their {@link Request}); the executor and the
 * recorder switch over {@link #request()} with every request a case and no default, and cast to the record the
 * decoder made for it.
 */
sealed interface BridgeCall {

    /** Returns the request this is. */
    Request request();

    /**
     * Returns the DAT call it makes, the name it is traced under: the request's, or for a request that carries two
     * calls (an atomic, an LMR sync, dat_evd_set_/clear_unwaitable, dat_evd_enable/_disable) the one it made.
     */
    default String call() {
        return request().call();
    }

    /** A request with no arguments: hello, the side channel's first frame. */
    record Bare(Request request) implements BridgeCall {
    }

    /** A request on one handle (the frees, dat_ia_query, dat_evd_dequeue, dat_ep_get_status...). */
    record OneHandle(Request request, int handle) implements BridgeCall {
    }

    /**
     * A request on one handle with one number: flags (dat_ia_close, dat_ep_disconnect), a context, a size, a
     * watermark, a handoff qualifier, an event's value (dat_evd_post_se), or the agent flag of dat_cno_create and
     * dat_cno_modify_agent.
     */
    record HandleValue(Request request, int handle, long value) implements BridgeCall {
    }

    /** A request on one handle that makes one of two calls: dat_evd_set_/clear_unwaitable, dat_evd_enable/disable. */
    record Toggle(Request request, int handle, boolean on) implements BridgeCall {
        @Override
        public String call() {
            return request == Request.EVD_ENABLE ? (on ? "dat_evd_enable" : "dat_evd_disable")
                    : on ? "dat_evd_set_unwaitable" : "dat_evd_clear_unwaitable";
        }
    }

    /** dat_ia_open: the IA's name and the async EVD's queue length. */
    record IaOpen(String name, int asyncEvdQlen) implements BridgeCall {
        @Override
        public Request request() {
            return Request.IA_OPEN;
        }
    }

    /** dat_*_query: a handle and its DAT_HANDLE_TYPE. */
    record Query(int handle, int type) implements BridgeCall {
        @Override
        public Request request() {
            return Request.QUERY;
        }
    }

    /** dat_evd_create (with a CNO when {@code cno} is not 0). */
    record EvdCreate(int ia, int qlen, int cno, int flags) implements BridgeCall {
        @Override
        public Request request() {
            return Request.EVD_CREATE;
        }
    }

    /** dat_evd_wait. */
    record EvdWait(int evd, long timeoutUs, int threshold) implements BridgeCall {
        @Override
        public Request request() {
            return Request.EVD_WAIT;
        }
    }

    /** dat_cno_wait. */
    record CnoWait(int cno, long timeoutUs) implements BridgeCall {
        @Override
        public Request request() {
            return Request.CNO_WAIT;
        }
    }

    /** dat_evd_modify_cno. */
    record EvdModifyCno(int evd, int cno) implements BridgeCall {
        @Override
        public Request request() {
            return Request.EVD_MODIFY_CNO;
        }
    }

    /** dat_lmr_create: the program's own address is the LMR's. */
    record LmrCreate(int ia, long address, long length, int pz, int privileges) implements BridgeCall {
        @Override
        public Request request() {
            return Request.LMR_CREATE;
        }
    }

    /** dat_lmr_sync_rdma_read or, when {@code write}, dat_lmr_sync_rdma_write. */
    record LmrSync(int ia, boolean write, LmrTriplet[] segments) implements BridgeCall {
        @Override
        public Request request() {
            return Request.LMR_SYNC;
        }

        @Override
        public String call() {
            return write ? "dat_lmr_sync_rdma_write" : "dat_lmr_sync_rdma_read";
        }
    }

    /** dat_rmr_bind (the range is the first segment of {@code iov}, or none). */
    record RmrBind(int rmr, int lmr, LmrTriplet[] iov, int privileges, int ep, long cookie, int flags)
            implements BridgeCall {
        @Override
        public Request request() {
            return Request.RMR_BIND;
        }
    }

    /**
     * dat_ep_create, or dat_ep_create_with_srq when {@code srq} is not 0. The attributes (null when the program gave
     * none) are as the bridge gives them: at least datsim's default message and RDMA sizes ({@link RequestDecoder}).
     */
    record EpCreate(int ia, int pz, int recvEvd, int requestEvd, int connectEvd, int srq, EpAttributes attr)
            implements BridgeCall {
        @Override
        public Request request() {
            return Request.EP_CREATE;
        }

        @Override
        public String call() {
            return srq != 0 ? "dat_ep_create_with_srq" : "dat_ep_create";
        }
    }

    /** dat_ep_connect: the remote IA address ({@link Protocol#ipOf}), its connection qualifier. */
    record EpConnect(int ep, int ip, long qual, long timeoutUs, byte[] privateData) implements BridgeCall {
        @Override
        public Request request() {
            return Request.EP_CONNECT;
        }
    }

    /** dat_ep_dup_connect. */
    record EpDupConnect(int ep, int dupEp, long timeoutUs, byte[] privateData) implements BridgeCall {
        @Override
        public Request request() {
            return Request.EP_DUP_CONNECT;
        }
    }

    /**
     * An endpoint post, of the scenario's post kinds ({@link PostCall.Kind}): Send, receive, RDMA Read and Write
     * ({@code remote} set), write with immediate ({@code immediate} too), fetch and add ({@code first} is the value
     * added) and compare and swap ({@code first} compared, {@code second} stored). The atomics share one request
     * ({@link Request#POST_ATOMIC}); their traced name is the kind's.
     */
    record Post(PostCall.Kind kind, int ep, LmrTriplet[] iov, long cookie, int flags, RmrTriplet remote,
            int immediate, long first, long second) implements BridgeCall {
        @Override
        public Request request() {
            return switch (kind) {
                case SEND -> Request.POST_SEND;
                case RECV -> Request.POST_RECV;
                case RDMA_READ -> Request.POST_READ;
                case RDMA_WRITE -> Request.POST_WRITE;
                case RDMA_WRITE_IMMED -> Request.POST_WRITE_IMMED;
                case FETCH_AND_ADD, CMP_AND_SWAP -> Request.POST_ATOMIC;
            };
        }

        @Override
        public String call() {
            return kind.call();
        }
    }

    /** dat_psp_create. */
    record PspCreate(int ia, long qual, int evd, int flags) implements BridgeCall {
        @Override
        public Request request() {
            return Request.PSP_CREATE;
        }
    }

    /** dat_psp_create_any. */
    record PspCreateAny(int ia, int evd, int flags) implements BridgeCall {
        @Override
        public Request request() {
            return Request.PSP_CREATE_ANY;
        }
    }

    /** dat_rsp_create. */
    record RspCreate(int ia, long qual, int ep, int evd) implements BridgeCall {
        @Override
        public Request request() {
            return Request.RSP_CREATE;
        }
    }

    /** dat_cr_accept ({@code ep} 0: the CR's own endpoint). */
    record CrAccept(int cr, int ep, byte[] privateData) implements BridgeCall {
        @Override
        public Request request() {
            return Request.CR_ACCEPT;
        }
    }

    /** dat_srq_create. */
    record SrqCreate(int ia, int pz, int maxRecvDtos, int maxRecvIov, int lowWatermark) implements BridgeCall {
        @Override
        public Request request() {
            return Request.SRQ_CREATE;
        }
    }

    /** dat_srq_post_recv. */
    record SrqPostRecv(int srq, LmrTriplet[] iov, long cookie) implements BridgeCall {
        @Override
        public Request request() {
            return Request.SRQ_POST_RECV;
        }
    }

    /** dat_ep_set_watermark. */
    record Watermark(int ep, int softHigh, int hardHigh) implements BridgeCall {
        @Override
        public Request request() {
            return Request.EP_SET_WATERMARK;
        }
    }

    /** A DAT call datsim does not implement, by name. */
    record Unsupported(String what) implements BridgeCall {
        @Override
        public Request request() {
            return Request.UNSUPPORTED;
        }
    }
}

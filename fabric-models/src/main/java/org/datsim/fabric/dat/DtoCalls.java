package org.datsim.fabric.dat;

import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.fabric.hca.QueuePair;
import org.datsim.fabric.hca.WcStatus;
import org.datsim.fabric.hca.WorkRequest;

/**
 * Data transfer: the dat_ep_post_* calls and the IB atomics (rules 12, 18, 40, 42, 47, 48, 50) and the listener that turns the HCA's
 * completions, errors and binds into DAT events.
 */
final class DtoCalls extends ProviderPart {

    DtoCalls(ProviderCore core) {
        super(core);
    }

    /**
     * dat_ep_post_send.
     *
     * @param ep the endpoint
     * @param iov the local segments
     * @param cookie the user cookie
     * @param flags completion flags (SUPPRESS, SOLICITED_WAIT, UNSIGNALLED, BARRIER_FENCE)
     * @param opId receives the operation id used in the trace
     * @return see {@link #postRequest}
     */
    public int postSend(Ep ep, LmrTriplet[] iov, long cookie, int flags, Out<Long> opId) {
        return postRequest(ep, WorkRequest.SEND, iov, cookie, null, flags, opId);
    }

    /**
     * dat_ep_post_rdma_write.
     *
     * @param ep the endpoint
     * @param iov the local source segments
     * @param cookie the user cookie
     * @param remote the remote target
     * @param flags completion flags (SUPPRESS, UNSIGNALLED, BARRIER_FENCE)
     * @param opId receives the operation id used in the trace
     * @return see {@link #postRequest}
     */
    public int postRdmaWrite(Ep ep, LmrTriplet[] iov, long cookie, RmrTriplet remote, int flags, Out<Long> opId) {
        return postRequest(ep, WorkRequest.RDMA_WRITE, iov, cookie, remote, flags, opId);
    }

    /**
     * dat_ib_post_rdma_write_immed (dat_ib_extensions.h, through dat_extension_op): an RDMA Write whose last packet
     * carries 4 bytes of immediate data and consumes a receive posted at the remote endpoint (its own or its SRQ's;
     * none posted: RNR NAK and retry, as for a Send). The requester completes with DAT_IB_DTO_EVENT, operation
     * DAT_IB_DTO_RDMA_WRITE_IMMED; the remote receive with DAT_IB_DTO_EVENT, operation DAT_IB_DTO_RECV_IMMED, the
     * Write's length and the immediate data (extension type DAT_IB_RDMA_WRITE_IMMED_DATA). Checked as
     * dat_ep_post_rdma_write.
     *
     * @param ep the endpoint
     * @param iov the local source segments
     * @param cookie the user cookie
     * @param remote the remote target
     * @param immediate the 32-bit immediate data
     * @param flags completion flags (SUPPRESS, UNSIGNALLED, BARRIER_FENCE)
     * @param opId receives the operation id used in the trace
     * @return see {@link #postRequest}
     */
    public int postRdmaWriteImmed(Ep ep, LmrTriplet[] iov, long cookie, RmrTriplet remote, int immediate, int flags,
            Out<Long> opId) {
        return postRequest(ep, WorkRequest.RDMA_WRITE, iov, cookie, remote, flags, opId, wr -> {
            wr.setImmediate(immediate);
        });
    }

    /**
     * dat_ep_post_rdma_read.
     *
     * @param ep the endpoint
     * @param iov the local sink segments
     * @param cookie the user cookie
     * @param remote the remote source
     * @param flags completion flags (SUPPRESS, UNSIGNALLED, BARRIER_FENCE)
     * @param opId receives the operation id used in the trace
     * @return see {@link #postRequest}
     */
    public int postRdmaRead(Ep ep, LmrTriplet[] iov, long cookie, RmrTriplet remote, int flags, Out<Long> opId) {
        return postRequest(ep, WorkRequest.RDMA_READ, iov, cookie, remote, flags, opId);
    }

    /**
     * dat_ib_post_fetch_and_add and dat_ib_post_cmp_and_swap (dat_ib_extensions.h, through dat_extension_op): an
     * 8-byte atomic on remote memory whose original value lands in the 8-byte local_iov. Checked as an RDMA Read
     * (dapl's extension path leaves these checks to the verbs; the simulator applies the post checks of
     * dat_ep_post_rdma_read), with lengths of exactly 8 bytes; completes as a DAT_IB_DTO_EVENT.
     *
     * @param ep the endpoint
     * @param opcode {@link WorkRequest#FETCH_ADD} or {@link WorkRequest#CMP_SWAP}
     * @param compareAdd the value added (Fetch and Add) or compared (Compare and Swap)
     * @param swap the value stored by a Compare and Swap whose compare matched (ignored by Fetch and Add)
     * @param iov the local sink segments, 8 bytes in all
     * @param cookie the user cookie
     * @param remote the remote 64-bit value (8 bytes, 8-byte aligned, DAT_IB_MEM_PRIV_REMOTE_ATOMIC)
     * @param flags completion flags (SUPPRESS, UNSIGNALLED, BARRIER_FENCE)
     * @param opId receives the operation id used in the trace
     * @return see {@link #postRequest}; DAT_LENGTH_ERROR when local_iov is not 8 bytes or remote_iov is shorter
     */
    public int postAtomic(Ep ep, int opcode, long compareAdd, long swap, LmrTriplet[] iov, long cookie,
            RmrTriplet remote, int flags, Out<Long> opId) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        long length = 0;
        for (LmrTriplet t : iov) {
            length += t.length();
        }
        if (length != WorkRequest.ATOMIC_BYTES || remote.length() < WorkRequest.ATOMIC_BYTES) {
            return err(DatReturn.LENGTH_ERROR, 0);
        }
        // The atomic acts on the 8 bytes at the remote address: a longer remote segment is allowed (dapl passes only
        // its address and rmr_context to the verbs; dtestx gives the whole 256-byte region it advertised).
        RmrTriplet target = new RmrTriplet(remote.rmrContext(), remote.address(), WorkRequest.ATOMIC_BYTES);
        return postRequest(ep, opcode, iov, cookie, target, flags, opId, wr -> {
            wr.setAtomicOperands(compareAdd, swap);
        });
    }

    /**
     * The checks and the posting common to the request DTOs (rules 12, 42, 47, 48, 50).
     *
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE/EP; DAT_INVALID_STATE/EP_UNCONNECTED outside CONNECTED and
     *     DISCONNECTED (as dapl); DAT_INVALID_PARAMETER for bad flags, too many segments or a segment outside its
     *     LMR; DAT_PRIVILEGES_VIOLATION for an unknown lmr_context or a missing local privilege;
     *     DAT_PROTECTION_VIOLATION for an LMR of another PZ; DAT_LENGTH_ERROR for a message over the limit or RDMA
     *     lengths that differ; DAT_INSUFFICIENT_RESOURCES/DAT_RESOURCE_MEMORY when max_request_dtos slots are taken
     *     (rule 11: a completed request keeps its slot until its completion, or a later one, is reaped)
     */
    private int postRequest(Ep ep, int opcode, LmrTriplet[] iov, long cookie, RmrTriplet remote, int flags,
            Out<Long> opId) {
        return postRequest(ep, opcode, iov, cookie, remote, flags, opId, null);
    }

    /** {@link #postRequest} that lets {@code setup} fill in the work request (an atomic's operands) before it goes. */
    private int postRequest(Ep ep, int opcode, LmrTriplet[] iov, long cookie, RmrTriplet remote, int flags,
            Out<Long> opId, java.util.function.Consumer<WorkRequest> setup) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        int allowed = Dat.COMPLETION_SUPPRESS_FLAG | Dat.COMPLETION_UNSIGNALLED_FLAG
                | Dat.COMPLETION_BARRIER_FENCE_FLAG | (opcode == WorkRequest.SEND
                        ? Dat.COMPLETION_SOLICITED_WAIT_FLAG : 0);
        if ((flags & ~allowed) != 0) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG5);
        }
        if ((flags & Dat.COMPLETION_UNSIGNALLED_FLAG) != 0
                && (ep.attr.requestCompletionFlags() & Dat.COMPLETION_UNSIGNALLED_FLAG) == 0) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG5);
        }
        if (ep.state != Dat.EP_STATE_CONNECTED && ep.state != Dat.EP_STATE_DISCONNECTED) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_UNCONNECTED);
        }
        if (ep.requestEvd == null) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_EVD_REQUEST);
        }
        int localPriv = opcode == WorkRequest.RDMA_READ || opcode == WorkRequest.FETCH_ADD
                || opcode == WorkRequest.CMP_SWAP ? Dat.MEM_PRIV_LOCAL_WRITE : Dat.MEM_PRIV_LOCAL_READ;
        int ret = checkIov(ep, iov, ep.attr.maxRequestIov(), localPriv);
        if (ret != DatReturn.SUCCESS) {
            return ret;
        }
        long length = 0;
        for (LmrTriplet t : iov) {
            length += t.length();
        }
        long limit = opcode == WorkRequest.SEND ? ep.attr.maxMessageSize() : ep.attr.maxRdmaSize();
        if (length > limit) {
            return err(DatReturn.LENGTH_ERROR, 0);
        }
        if (remote != null && remote.length() != length) {
            return err(DatReturn.LENGTH_ERROR, 0);
        }
        if (ep.requestsInFlight >= ep.attr.maxRequestDtos()) {
            // Rule 11: no free request-queue slot. dapl's cookie ring has max_request_dtos cookies, and
            // dapls_dto_cookie_alloc returns DAT_ERROR(DAT_INSUFFICIENT_RESOURCES, DAT_RESOURCE_MEMORY).
            return err(DatReturn.INSUFFICIENT_RESOURCES, DatReturn.SUB_RESOURCE_MEMORY);
        }
        WorkRequest wr = newWorkRequest(ep, opcode, iov, cookie, flags, remote);
        if (setup != null) {
            setup.accept(wr);
        }
        ep.requestsInFlight++;
        traceOp(ep, wr, TraceEvent.POST, ep.ia.host.hca.postsInline(wr));
        ep.ia.host.hca.postRequest(wr);
        opId.value = wr.opId;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_ep_post_recv (rule 40): allowed in every state; in DISCONNECTED the receive is flushed at once.
     *
     * @param ep the endpoint
     * @param iov the local sink segments
     * @param cookie the user cookie
     * @param flags completion flags (only UNSIGNALLED, and only if the EP's recv_completion_flags has it)
     * @param opId receives the operation id used in the trace
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, DAT_INVALID_PARAMETER, DAT_PRIVILEGES_VIOLATION,
     *     DAT_PROTECTION_VIOLATION or DAT_INSUFFICIENT_RESOURCES
     */
    public int postRecv(Ep ep, LmrTriplet[] iov, long cookie, int flags, Out<Long> opId) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        if ((flags & ~Dat.COMPLETION_UNSIGNALLED_FLAG) != 0 || ((flags & Dat.COMPLETION_UNSIGNALLED_FLAG) != 0
                && (ep.attr.recvCompletionFlags() & Dat.COMPLETION_UNSIGNALLED_FLAG) == 0)) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG4);
        }
        if (ep.recvEvd == null) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_EVD_RECV);
        }
        if (ep.srq != null) {
            return err(DatReturn.INVALID_STATE, 0); // its receives come from its SRQ (dat_srq_post_recv)
        }
        int ret = checkIov(ep, iov, ep.attr.maxRecvIov(), Dat.MEM_PRIV_LOCAL_WRITE);
        if (ret != DatReturn.SUCCESS) {
            return ret;
        }
        if (ep.receivesPosted >= ep.attr.maxRecvDtos()) {
            return err(DatReturn.INSUFFICIENT_RESOURCES, DatReturn.SUB_RESOURCE_MEMORY); // as dapl: no cookie
        }
        WorkRequest wr = newWorkRequest(ep, WorkRequest.RECV, iov, cookie, flags, null);
        ep.receivesPosted++;
        if (ep.softArmed || ep.hardHighWatermark >= 0) {
            core.epx.checkWatermarks(ep);
        }
        traceOp(ep, wr, TraceEvent.POST);
        ep.ia.host.hca.postReceive(wr);
        opId.value = wr.opId;
        return DatReturn.SUCCESS;
    }

    private int checkIov(Ep ep, LmrTriplet[] iov, int maxSegments, int requiredPriv) {
        return checkIov(ep.ia.host, ep.pz, iov, maxSegments, requiredPriv);
    }

    /**
     * The checks of a local_iov (rules 47, 48, 50): segment count, registered LMRs of the right PZ with the needed
     * privilege, ranges inside them.
     */
    int checkIov(DatHost h, Pz pz, LmrTriplet[] iov, int maxSegments, int requiredPriv) {
        if (iov.length > maxSegments) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        for (LmrTriplet t : iov) {
            if (t.length() == 0) {
                continue;
            }
            Lmr lmr = h.byLmrContext.get(t.lmrContext());
            if (lmr == null || lmr.freed) {
                return err(DatReturn.PRIVILEGES_VIOLATION, 0);
            }
            if (lmr.pz != pz) {
                return err(DatReturn.PROTECTION_VIOLATION, 0);
            }
            if ((lmr.privileges & requiredPriv) != requiredPriv
                    && (requiredPriv != Dat.MEM_PRIV_LOCAL_READ || core.checkLocalRead)) {
                return err(DatReturn.PRIVILEGES_VIOLATION, requiredPriv == Dat.MEM_PRIV_LOCAL_READ
                        ? DatReturn.SUB_PRIVILEGES_READ : DatReturn.SUB_PRIVILEGES_WRITE);
            }
            if (!lmr.contains(t.address(), t.length())) {
                return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG3);
            }
        }
        return DatReturn.SUCCESS;
    }

    private WorkRequest newWorkRequest(Ep ep, int opcode, LmrTriplet[] iov, long cookie, int flags,
            RmrTriplet remote) {
        return newWorkRequest(ep.qp, opcode, iov, cookie, flags, remote);
    }

    /** Builds the work request of a post; {@code qp} is null for a receive posted to an SRQ. */
    WorkRequest newWorkRequest(QueuePair qp, int opcode, LmrTriplet[] iov, long cookie, int flags,
            RmrTriplet remote) {
        int n = 0;
        for (LmrTriplet t : iov) {
            if (t.length() > 0) {
                n++;
            }
        }
        long[] addr = new long[n];
        long[] len = new long[n];
        int i = 0;
        for (LmrTriplet t : iov) {
            if (t.length() > 0) {
                addr[i] = t.address();
                len[i++] = t.length();
            }
        }
        WorkRequest wr = new WorkRequest(core.nextOpId++, opcode, qp, cookie, flags, addr, len,
                remote != null ? remote.address() : 0, remote != null ? remote.rmrContext() : 0);
        wr.setSendFlags(DtoStatusTable.sendFlags(flags));
        return wr;
    }

    void traceOp(Ep ep, WorkRequest wr, String kind) {
        traceOp(ep, wr, kind, false);
    }

    /**
     * Traces a post; {@code inline} adds {@code "inline": true} (only then: a post that is not inline has no such
     * field, so traces without inline posts stay as they were).
     */
    void traceOp(Ep ep, WorkRequest wr, String kind, boolean inline) {
        if (trace.isEnabled()) {
            TraceEvent e = TraceEvent.of(sim.now(), kind, ep.ia.host.name).ep(ep.name()).op(wr.opId)
                    .cookie(wr.cookie).attr(TraceKey.OPCODE, wr.opName()).attr(TraceKey.BYTES, wr.length);
            if (wr.flags != 0) {
                e.attr(TraceKey.FLAGS, Dat.COMPLETION_FLAGS.flagNames(wr.flags));
            }
            if (inline) {
                e.attr(TraceKey.INLINE, Boolean.TRUE);
            }
            if (wr.withImmediate) {
                e.attr(TraceKey.IMMEDIATE, (long) wr.immediate & 0xffffffffL);
            }
            trace.fire(e);
        }
    }

    /**
     * Returns the listener that hears the HCA on behalf of an endpoint.
     *
     * @param ep the endpoint
     * @return its queue pair's listener
     */
    QueuePair.Listener listener(Ep ep) {
        return new EpListener(ep);
    }

    /** Hears the HCA on behalf of one endpoint. */
    private final class EpListener implements QueuePair.Listener {

        private final Ep ep;

        EpListener(Ep ep) {
            this.ep = ep;
        }

        @Override
        public void requestCompleted(WorkRequest wr) {
            int status = DtoStatusTable.datStatus(wr.status());
            if (wr.opcode == WorkRequest.BIND && status == Dat.DTO_ERR_FLUSHED) {
                Rmr.Binding b = (Rmr.Binding) wr.bindTarget;
                if (b.lmr() != null) {
                    b.lmr().bindRefs--; // the flushed bind never executed: give back the LMR it held
                }
            }
            // Rule 11: its slot stays taken until its completion, or a later one of this request queue (for a
            // suppressed one), is reaped by dat_evd_wait or dat_evd_dequeue (EvdCalls.evdDequeue frees it).
            ep.requestCompletions++;
            deliver(ep.requestEvd, wr);
            core.cm.maybeFinishGracefulDisconnect(ep);
        }

        @Override
        public void receiveCompleted(WorkRequest wr) {
            if (ep.srq == null) {
                ep.receivesPosted--;
            }
            deliver(ep.recvEvd, wr);
        }

        private void deliver(Evd evd, WorkRequest wr) {
            int status = DtoStatusTable.datStatus(wr.status());
            boolean suppressed = status == Dat.DTO_SUCCESS
                    && (wr.flags & Dat.COMPLETION_SUPPRESS_FLAG) != 0;
            if (trace.isEnabled()) {
                TraceEvent e = TraceEvent.of(sim.now(), TraceEvent.COMPLETE, ep.ia.host.name).ep(ep.name())
                        .op(wr.opId).cookie(wr.cookie).status(Dat.DTO_STATUS.name(status))
                        .attr(TraceKey.OPCODE, wr.opName()).attr(TraceKey.BYTES, wr.transferred());
                if (suppressed) {
                    e.attr(TraceKey.SUPPRESSED, Boolean.TRUE);
                }
                if (wr.hasImmediate()) {
                    e.attr(TraceKey.IMMEDIATE, (long) wr.immediateData() & 0xffffffffL);
                }
                if (wr.heldBehind() >= 0) {
                    e.attr(TraceKey.HELD_BEHIND, wr.heldBehind()).attr(TraceKey.FINISHED_PS, wr.finishedPs());
                }
                if (wr.overtookRead() >= 0) {
                    e.attr(TraceKey.OVERTOOK_READ, wr.overtookRead());
                }
                trace.fire(e);
            }
            long requestSeq = wr.opcode == WorkRequest.RECV ? 0 : ep.requestCompletions;
            if (!suppressed && wr.opcode == WorkRequest.BIND && !core.bindAsDtoEvent) {
                DatEvent e = new DatEvent(Dat.RMR_BIND_COMPLETION_EVENT, evd, ep, wr.cookie, status, 0,
                        Dat.DTO_BIND_MW, null, ((Rmr.Binding) wr.bindTarget).rmr(), wr.opId, sim.now(),
                        (wr.flags & Dat.COMPLETION_UNSIGNALLED_FLAG) != 0);
                e.requestSeq = requestSeq;
                core.post(evd, e);
            } else if (!suppressed) {
                // Rule 14: on a SOLICITED_WAIT receive stream only a solicited Send (or a failure) notifies.
                boolean silent = wr.opcode == WorkRequest.RECV && status == Dat.DTO_SUCCESS && !wr.isSolicited()
                        && (ep.attr.recvCompletionFlags() & Dat.COMPLETION_SOLICITED_WAIT_FLAG) != 0;
                // The IB atomics complete as dapl's extended DTO event: DAT_IB_DTO_EVENT with a DAT_IB_DTOS
                // operation and, on success, the DAT_IB_EXT_TYPE in the extension data (dapl_ib_extensions.c).
                // So do RDMA Writes with immediate data: DAT_IB_DTO_RDMA_WRITE_IMMED at the requester, and at the
                // responder the receive they consumed, DAT_IB_DTO_RECV_IMMED with the immediate data.
                boolean extended = wr.isAtomic() || wr.hasImmediate();
                int operation = !wr.hasImmediate() ? DtoStatusTable.datOperation(wr.opcode)
                        : wr.opcode == WorkRequest.RECV ? Dat.IB_DTO_RECV_IMMED : Dat.IB_DTO_RDMA_WRITE_IMMED;
                DatEvent e = new DatEvent(extended ? Dat.IB_DTO_EVENT : Dat.DTO_COMPLETION_EVENT, evd, ep,
                        wr.cookie, status, status == Dat.DTO_SUCCESS ? wr.transferred() : 0, operation,
                        null, wr.opId, sim.now(), silent || (wr.flags & Dat.COMPLETION_UNSIGNALLED_FLAG) != 0);
                if (extended && status == Dat.DTO_SUCCESS) {
                    e.extType = wr.opcode == WorkRequest.FETCH_ADD ? Dat.IB_EXT_FETCH_AND_ADD
                            : wr.opcode == WorkRequest.CMP_SWAP ? Dat.IB_EXT_CMP_AND_SWAP
                            : wr.opcode == WorkRequest.RECV ? Dat.IB_EXT_RDMA_WRITE_IMMED_DATA
                            : Dat.IB_EXT_RDMA_WRITE_IMMED;
                    e.immediate = wr.opcode == WorkRequest.RECV ? wr.immediateData() : 0;
                }
                if (wr.opcode == WorkRequest.RECV) {
                    e.srq = ep.srq; // the SRQ's receive stays outstanding until this completion is reaped
                }
                e.requestSeq = requestSeq;
                core.post(evd, e);
            }
            if (sim.exploring()) {
                core.reported();
            }
        }

        @Override
        public void broken(int wcStatus) {
            int status = DtoStatusTable.datStatus(wcStatus);
            if (ep.state == Dat.EP_STATE_DISCONNECTED || ep.freed) {
                return;
            }
            ep.state = Dat.EP_STATE_DISCONNECTED;
            if (trace.isEnabled()) {
                trace.fire(TraceEvent.of(sim.now(), TraceEvent.ERROR, ep.ia.host.name).ep(ep.name())
                        .status(Dat.DTO_STATUS.name(status)).attr(TraceKey.ERROR, "connection broken"));
            }
            core.postConnectionEvent(ep, Dat.CONNECTION_EVENT_BROKEN);
        }

        @Override
        public int bindExecuted(WorkRequest wr) {
            Rmr.Binding b = (Rmr.Binding) wr.bindTarget;
            Rmr rmr = b.rmr();
            if (rmr.freed || (b.lmr() != null && b.lmr().freed)) {
                if (b.lmr() != null) {
                    b.lmr().bindRefs--;
                }
                return WcStatus.MW_BIND_ERR; // rule 26: the bind fails after dat_rmr_bind returned (DAT_RMR_OPERATION_FAILED)
            }
            core.memory.unbindNow(rmr);
            if (b.lmr() != null) {
                rmr.lmr = b.lmr(); // takes over the reference the bind held
                rmr.address = b.address();
                rmr.length = b.length();
                rmr.privileges = b.privileges();
                rmr.activeContext = b.context();
                ep.ia.host.rmrByContext.put(b.context(), rmr);
            }
            return WcStatus.SUCCESS;
        }

        @Override
        public void requestArrived() {
            if (ep.state == Dat.EP_STATE_COMPLETION_PENDING && !ep.freed) {
                ep.state = Dat.EP_STATE_CONNECTED; // the RTU is overtaken by data: communication established
                core.cm.communicationEstablished(ep);
                core.postConnectionEvent(ep, Dat.CONNECTION_EVENT_ESTABLISHED);
            }
        }

        @Override
        public int checkRemoteAtomic(int rkey, long address) {
            return checkRemote(rkey, address, WorkRequest.ATOMIC_BYTES, Dat.IB_MEM_PRIV_REMOTE_ATOMIC);
        }

        @Override
        public int checkRemoteAccess(int rkey, long address, long length, boolean write) {
            return checkRemote(rkey, address, length, write ? Dat.MEM_PRIV_REMOTE_WRITE : Dat.MEM_PRIV_REMOTE_READ);
        }

        private int checkRemote(int rkey, long address, long length, int priv) {
            Rmr rmr = ep.ia.host.rmrByContext.get(rkey);
            if (rmr != null) {
                // A window: only its current, executed bind counts (rules 24, 25).
                boolean inRange = address >= rmr.address && length >= 0 && address - rmr.address <= rmr.length - length;
                if (rmr.freed || rmr.activeContext != rkey || rmr.pz != ep.pz || (rmr.privileges & priv) == 0
                        || !inRange) {
                    return WcStatus.REM_ACCESS_ERR;
                }
                return WcStatus.SUCCESS;
            }
            Lmr lmr = ep.ia.host.byRmrContext.get(rkey);
            if (lmr == null || lmr.freed || lmr.pz != ep.pz || (lmr.privileges & priv) == 0
                    || !lmr.contains(address, length)) {
                return WcStatus.REM_ACCESS_ERR;
            }
            return WcStatus.SUCCESS;
        }
    }
}

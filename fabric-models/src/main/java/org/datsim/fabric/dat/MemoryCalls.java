package org.datsim.fabric.dat;

import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.hca.WorkRequest;

/** The memory calls: LMR create, free and sync (rules 30 to 35) and RMR create, free and bind (rules 22 to 29). */
final class MemoryCalls extends ProviderPart {

    MemoryCalls(ProviderCore core) {
        super(core);
    }

    /**
     * dat_lmr_create for DAT_MEM_TYPE_VIRTUAL memory.
     *
     * @param ia the IA
     * @param address the region's virtual address, or -1 to have the host allocate one
     * @param length the region's length in bytes
     * @param pz the protection zone
     * @param privileges the DAT_MEM_PRIV flags, DAT_IB_MEM_PRIV_REMOTE_ATOMIC included
     * @param lmr receives the LMR (its contexts, address and size are read from it)
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE (IA or PZ), or DAT_INVALID_PARAMETER for a bad length (ARG3) or
     *     privileges (ARG5)
     */
    public int lmrCreate(Ia ia, long address, long length, Pz pz, int privileges, Out<Lmr> lmr) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        if (bad(pz, Pz.class) || pz.ia != ia) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_PZ);
        }
        if (length <= 0 || length > (1L << 40)) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG3);
        }
        if ((privileges & ~(Dat.MEM_PRIV_ALL | Dat.IB_MEM_PRIV_REMOTE_ATOMIC)) != 0) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG5);
        }
        DatHost h = ia.host;
        long addr = address >= 0 ? address : h.memory.allocate(length);
        Lmr created = new Lmr(h.nextName("lmr"), ia, pz, addr, length, privileges, h.nextContext(),
                h.nextContext());
        h.hca.registerMemory(addr, length); // the registration leaves its translation entries in the HCA's cache
        h.byLmrContext.put(created.lmrContext, created);
        h.byRmrContext.put(created.rmrContext, created);
        pz.users++;
        ia.children.add(created);
        lmr.value = created;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_lmr_free.
     *
     * @param lmr the LMR
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int lmrFree(Lmr lmr) {
        if (bad(lmr, Lmr.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_LMR);
        }
        if (lmr.bindRefs > 0) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_LMR_IN_USE); // rule 51
        }
        lmr.freed = true;
        lmr.ia.host.byLmrContext.remove(lmr.lmrContext);
        lmr.ia.host.byRmrContext.remove(lmr.rmrContext);
        lmr.pz.users--;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_lmr_sync_rdma_read (rules 30, 31, 34): after the CPU changed memory that an incoming RDMA Read will fetch,
     * makes it visible to the HCA. On a coherent host (lmr_sync_req false) it checks its arguments and does nothing.
     * One call may cover segments of different LMRs and PZs of the host.
     *
     * @param ia the IA
     * @param segments the ranges, each inside a registered LMR of the host
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE for a bad IA, or DAT_INVALID_PARAMETER for a segment outside every LMR
     */
    public int lmrSyncRdmaRead(Ia ia, LmrTriplet[] segments) {
        return lmrSync(ia, segments, true);
    }

    /**
     * dat_lmr_sync_rdma_write (rules 30, 32, 33, 34): after an incoming RDMA Write completed, makes its bytes visible
     * to the CPU (and, before an RDMA Write starts, pushes out the CPU's own writes to the range). On a coherent host
     * it checks its arguments and does nothing.
     *
     * @param ia the IA
     * @param segments the ranges, each inside a registered LMR of the host
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE for a bad IA, or DAT_INVALID_PARAMETER for a segment outside every LMR
     */
    public int lmrSyncRdmaWrite(Ia ia, LmrTriplet[] segments) {
        return lmrSync(ia, segments, false);
    }

    private int lmrSync(Ia ia, LmrTriplet[] segments, boolean forRead) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        DatHost h = ia.host;
        for (LmrTriplet t : segments) {
            if (t.length() == 0) {
                continue;
            }
            Lmr lmr = h.byLmrContext.get(t.lmrContext());
            if (lmr == null || lmr.freed || !lmr.contains(t.address(), t.length())) {
                return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
            }
        }
        for (LmrTriplet t : segments) {
            if (forRead) {
                h.memory.syncForRdmaRead(t.address(), t.length());
            } else {
                h.memory.syncForRdmaWrite(t.address(), t.length());
            }
        }
        return DatReturn.SUCCESS;
    }

    /**
     * Returns the provider attribute lmr_sync_req of a host's IA: true when its memory is not coherent, so the
     * consumer must call the dat_lmr_sync_* functions.
     *
     * @param ia the IA
     * @return lmr_sync_req
     */
    public boolean lmrSyncRequired(Ia ia) {
        return ia.host.memory.coherence() != org.datsim.fabric.memory.Coherence.COHERENT;
    }

    // ------------------------------------------------------------------ RMR

    /**
     * dat_rmr_create: an unbound memory window in a protection zone.
     *
     * @param pz the protection zone
     * @param rmr receives the RMR
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int rmrCreate(Pz pz, Out<Rmr> rmr) {
        if (bad(pz, Pz.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_PZ);
        }
        Rmr created = new Rmr(pz.ia.host.nextName("rmr"), pz.ia, pz);
        pz.users++;
        pz.ia.children.add(created);
        rmr.value = created;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_rmr_free: destroys a window; its context is refused from now on.
     *
     * @param rmr the RMR
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int rmrFree(Rmr rmr) {
        if (bad(rmr, Rmr.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_RMR);
        }
        unbindNow(rmr);
        rmr.freed = true;
        rmr.pz.users--;
        return DatReturn.SUCCESS;
    }

    void unbindNow(Rmr rmr) {
        rmr.ia.host.rmrByContext.remove(rmr.activeContext);
        rmr.activeContext = 0;
        if (rmr.lmr != null) {
            rmr.lmr.bindRefs--;
            rmr.lmr = null;
        }
        rmr.length = 0;
    }

    /**
     * dat_rmr_bind (rules 22 to 29): posts a bind of the window to a range of an LMR on an endpoint's request queue
     * and returns the new rmr_context at once. The HCA executes the bind later; until then the new context is refused
     * by the HCA (rule 24), and after it the previous context is (rule 25). Every later operation of the endpoint
     * waits for the bind (rule 23). A length of 0 unbinds.
     *
     * @param rmr the RMR
     * @param lmr the LMR whose range is bound (ignored when unbinding)
     * @param range the range: the LMR's lmr_context, an address and a length
     * @param privileges DAT_MEM_PRIV_REMOTE_READ_FLAG, DAT_MEM_PRIV_REMOTE_WRITE_FLAG and/or
     *     DAT_IB_MEM_PRIV_REMOTE_ATOMIC (which, like REMOTE_WRITE, needs the LMR's LOCAL_WRITE)
     * @param ep the endpoint whose request queue carries the bind
     * @param cookie the user cookie of the completion
     * @param flags completion flags (SUPPRESS, UNSIGNALLED, BARRIER_FENCE)
     * @param context receives the new rmr_context
     * @param opId receives the operation id used in the trace
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE (RMR, LMR, EP); DAT_INVALID_PARAMETER for bad flags or privileges, no
     *     range (ARG3), a range outside the LMR, or objects of different protection zones (ARG4, as dapl); DAT_PRIVILEGES_VIOLATION
     *     when the LMR's privileges do not back the RMR's (rule 27); DAT_INVALID_STATE outside CONNECTED (dapl;
     *     see provider.bind_when_disconnected); DAT_INSUFFICIENT_RESOURCES when max_request_dtos are outstanding
     */
    public int rmrBind(Rmr rmr, Lmr lmr, LmrTriplet range, int privileges, Ep ep, long cookie, int flags,
            Out<Integer> context, Out<Long> opId) {
        if (bad(rmr, Rmr.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_RMR);
        }
        if (range == null) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG3); // no lmr_triplet
        }
        boolean unbind = range.length() == 0;
        if (!unbind && bad(lmr, Lmr.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_LMR);
        }
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        int allowed = Dat.COMPLETION_SUPPRESS_FLAG | Dat.COMPLETION_UNSIGNALLED_FLAG
                | Dat.COMPLETION_BARRIER_FENCE_FLAG;
        if ((flags & ~allowed) != 0 || ((flags & Dat.COMPLETION_UNSIGNALLED_FLAG) != 0
                && (ep.attr.requestCompletionFlags() & Dat.COMPLETION_UNSIGNALLED_FLAG) == 0)) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG8);
        }
        if ((privileges & ~(Dat.MEM_PRIV_REMOTE_READ | Dat.MEM_PRIV_REMOTE_WRITE
                | Dat.IB_MEM_PRIV_REMOTE_ATOMIC)) != 0) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG4);
        }
        if (!unbind) {
            if (lmr.pz != rmr.pz || ep.pz != rmr.pz) {
                return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG4); // rule 28, as dapl
            }
            if (range.lmrContext() != lmr.lmrContext || !lmr.contains(range.address(), range.length())) {
                return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG3);
            }
            if (((privileges & Dat.MEM_PRIV_REMOTE_READ) != 0 && (lmr.privileges & Dat.MEM_PRIV_LOCAL_READ) == 0)
                    || ((privileges & (Dat.MEM_PRIV_REMOTE_WRITE | Dat.IB_MEM_PRIV_REMOTE_ATOMIC)) != 0
                            && (lmr.privileges & Dat.MEM_PRIV_LOCAL_WRITE) == 0)) {
                return err(DatReturn.PRIVILEGES_VIOLATION, 0); // rule 27
            }
        }
        boolean flushNow = false;
        if (ep.state != Dat.EP_STATE_CONNECTED) {
            if (ep.state == Dat.EP_STATE_DISCONNECTED && core.bindFlushWhenDisconnected) {
                flushNow = true; // rule 29, the specification's behaviour
            } else {
                return err(DatReturn.INVALID_STATE, ep.stateSubtype()); // rule 29, dapl's behaviour
            }
        }
        if (ep.requestEvd == null) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_EVD_REQUEST);
        }
        if (ep.requestsInFlight >= ep.attr.maxRequestDtos()) {
            return err(DatReturn.INSUFFICIENT_RESOURCES, DatReturn.SUB_RESOURCE_MEMORY); // rule 22, as dapl: no cookie
        }
        int newContext = unbind ? 0 : ep.ia.host.nextContext();
        WorkRequest wr = new WorkRequest(core.nextOpId++, WorkRequest.BIND, ep.qp, cookie, flags, new long[0],
                new long[0], unbind ? 0 : range.address(), newContext);
        wr.setSendFlags(DtoStatusTable.sendFlags(flags));
        wr.setBindTarget(new Rmr.Binding(rmr, unbind ? null : lmr, range.address(), range.length(), privileges,
                newContext));
        if (!unbind) {
            lmr.bindRefs++; // held by the bind in flight; given back if it fails or is flushed
        }
        ep.requestsInFlight++;
        rmr.context = newContext;
        rmr.requestedAddress = range.address();
        rmr.requestedLength = range.length();
        core.dto.traceOp(ep, wr, TraceEvent.POST);
        if (flushNow) {
            ep.qp.hca().flush(ep.qp);
        }
        ep.ia.host.hca.postRequest(wr);
        context.value = newContext;
        opId.value = wr.opId;
        return DatReturn.SUCCESS;
    }
}

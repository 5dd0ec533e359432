package org.datsim.fabric.dat;

import java.util.List;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;

/**
 * The DAT provider of the simulated fabric. Each method is one DAT call made by a consumer on a host; it validates
 * its arguments as the man pages say, returns the DAT_RETURN value (see {@link DatReturn}), and fills its
 * {@link Out} parameters only on success. Asynchronous work (data transfer, connection management) proceeds in
 * simulated time and ends in events on EVDs.
 *
 * <p>This class is the provider's public face; the calls are implemented by its parts, one per group of the API,
 * where each method's arguments and returns are documented in full: {@code IaCalls} (IA, PZ, handles, queries),
 * {@code EvdCalls}, {@code MemoryCalls} (LMR, RMR), {@code EpCalls}, {@code ConnectionCalls} (connect, disconnect,
 * PSP, CR), {@code DtoCalls} (the posts and the completions), {@code SrqCalls}, {@code CnoCalls}, {@code RspCalls}
 * and {@code RegistryCalls}. Arguments are those of the man pages, in their order.
 */
public final class DatProvider {

    /** The first connection qualifier dat_psp_create_any hands out (above the well-known ones). */
    public static final long FIRST_ANY_CONN_QUAL = 0x10000;

    private final ProviderCore core;

    /**
     * Creates the provider of a fabric.
     *
     * @param sim the simulator
     * @param trace where provider events are traced
     * @param hosts the hosts, in id order
     * @param params the fabric parameters
     */
    public DatProvider(Simulator sim, TraceSource<TraceEvent> trace, List<DatHost> hosts, Params params) {
        this.core = new ProviderCore(sim, trace, hosts, params);
    }

    /**
     * Creates the per-host provider state for a host.
     *
     * @param name the host's name
     * @param id the host's id
     * @param hca its HCA
     * @param memory its memory
     * @return the host state
     */
    public static DatHost newHost(String name, int id, org.datsim.fabric.hca.Hca hca,
            org.datsim.fabric.memory.HostMemory memory) {
        return new DatHost(name, id, hca, memory);
    }

    /** Returns the hosts in id order. */
    public List<DatHost> hosts() {
        return core.hosts;
    }

    /**
     * Finds a host by name.
     *
     * @param name the host name
     * @return the host, or null
     */
    public DatHost host(String name) {
        return core.host(name);
    }

    /**
     * dat_strerror: the names of a return's type and subtype.
     *
     * @param ret a DAT_RETURN value
     * @return for example {@code "DAT_INVALID_STATE DAT_INVALID_STATE_EP_UNCONNECTED"}
     */
    public static String strerror(int ret) {
        return DatReturn.describe(ret);
    }

    /**
     * dat_ia_open. See {@code IaCalls}.
     *
     * @return DAT_SUCCESS; DAT_PROVIDER_NOT_FOUND/DAT_NAME_NOT_REGISTERED for an unknown name;
     *     DAT_INVALID_PARAMETER for a bad queue length
     */
    public int iaOpen(DatHost host, String iaName, int asyncEvdQlen, Out<Ia> ia) {
        return core.ia.iaOpen(host, iaName, asyncEvdQlen, ia);
    }

    /**
     * dat_ia_close. See {@code IaCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, DAT_INVALID_PARAMETER or DAT_INVALID_STATE/IA_IN_USE
     */
    public int iaClose(Ia ia, int flags) {
        return core.ia.iaClose(ia, flags);
    }

    /** dat_pz_create. See {@code IaCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int pzCreate(Ia ia, Out<Pz> pz) {
        return core.ia.pzCreate(ia, pz);
    }

    /**
     * dat_pz_free. See {@code IaCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_STATE/PZ_IN_USE while EPs or LMRs use it
     */
    public int pzFree(Pz pz) {
        return core.ia.pzFree(pz);
    }

    /** dat_set_consumer_context. See {@code IaCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int setConsumerContext(DatHandle handle, long context) {
        return core.ia.setConsumerContext(handle, context);
    }

    /** dat_get_consumer_context. See {@code IaCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int getConsumerContext(DatHandle handle, Out<Long> context) {
        return core.ia.getConsumerContext(handle, context);
    }

    /** dat_get_handle_type. See {@code IaCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int getHandleType(DatHandle handle, Out<Integer> type) {
        return core.ia.getHandleType(handle, type);
    }

    /** dat_ia_query. See {@code IaCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int iaQuery(Ia ia, Out<java.util.Map<String, Long>> attributes) {
        return core.ia.iaQuery(ia, attributes);
    }

    /**
     * The dat_*_query calls of the objects other than the IA. See {@code IaCalls}.
     *
     * @return DAT_SUCCESS, or DAT_INVALID_HANDLE if the handle is not a live object of that type
     */
    public int query(DatHandle handle, int type, Out<java.util.Map<String, Long>> params) {
        return core.ia.query(handle, type, params);
    }

    /**
     * dat_evd_create. See {@code EvdCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_PARAMETER for a bad qlen (ARG2) or flags (ARG4)
     */
    public int evdCreate(Ia ia, int qlen, int flags, Out<Evd> evd) {
        return core.evd.evdCreate(ia, qlen, flags, evd);
    }

    /**
     * dat_evd_free. See {@code EvdCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_STATE/EVD_IN_USE while streams feed it
     */
    public int evdFree(Evd evd) {
        return core.evd.evdFree(evd);
    }

    /**
     * The argument and state checks of dat_evd_wait, made when the call starts (rules 4 and 5). See {@code EvdCalls}.
     *
     * @return DAT_SUCCESS if the wait may proceed, else its error
     */
    public int evdWaitCheck(Evd evd, long timeoutUs, int threshold) {
        return core.evd.evdWaitCheck(evd, timeoutUs, threshold);
    }

    /**
     * Registers the consumer blocked in dat_evd_wait, who is woken when an event is queued. See {@code EvdCalls}.
     *
     */
    public void evdSetWaiter(Evd evd, Runnable wake) {
        core.evd.evdSetWaiter(evd, wake);
    }

    /**
     * dat_evd_dequeue, and the final step of a satisfied dat_evd_wait. See {@code EvdCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, DAT_QUEUE_EMPTY, or DAT_INVALID_STATE/EVD_WAITER while a consumer
     *     waits on it (rule 4)
     */
    public int evdDequeue(Evd evd, Out<DatEvent> event) {
        return core.evd.evdDequeue(evd, event);
    }

    /** dat_evd_set_unwaitable. See {@code EvdCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int evdSetUnwaitable(Evd evd) {
        return core.evd.evdSetUnwaitable(evd);
    }

    /** dat_evd_clear_unwaitable. See {@code EvdCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int evdClearUnwaitable(Evd evd) {
        return core.evd.evdClearUnwaitable(evd);
    }

    /** dat_evd_enable or dat_evd_disable. See {@code EvdCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int evdSetEnabled(Evd evd, boolean enable) {
        return core.evd.evdSetEnabled(evd, enable);
    }

    /**
     * dat_evd_resize. See {@code EvdCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, DAT_INVALID_PARAMETER (ARG2) or DAT_INVALID_STATE
     */
    public int evdResize(Evd evd, int qlen) {
        return core.evd.evdResize(evd, qlen);
    }

    /** dat_evd_post_se. See {@code EvdCalls}; returns DAT_SUCCESS, DAT_INVALID_HANDLE or DAT_QUEUE_FULL. */
    public int evdPostSe(Evd evd, long pointer) {
        return core.evd.evdPostSe(evd, pointer);
    }

    /**
     * dat_lmr_create for DAT_MEM_TYPE_VIRTUAL memory. See {@code MemoryCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE (IA or PZ), or DAT_INVALID_PARAMETER for a bad length (ARG3) or
     *     privileges (ARG5)
     */
    public int lmrCreate(Ia ia, long address, long length, Pz pz, int privileges, Out<Lmr> lmr) {
        return core.memory.lmrCreate(ia, address, length, pz, privileges, lmr);
    }

    /** dat_lmr_free. See {@code MemoryCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int lmrFree(Lmr lmr) {
        return core.memory.lmrFree(lmr);
    }

    /**
     * dat_lmr_sync_rdma_read (rules 30, 31, 34). See {@code MemoryCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE for a bad IA, or DAT_INVALID_PARAMETER for a segment outside every
     *     LMR
     */
    public int lmrSyncRdmaRead(Ia ia, LmrTriplet[] segments) {
        return core.memory.lmrSyncRdmaRead(ia, segments);
    }

    /**
     * dat_lmr_sync_rdma_write (rules 30, 32, 33, 34). See {@code MemoryCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE for a bad IA, or DAT_INVALID_PARAMETER for a segment outside every
     *     LMR
     */
    public int lmrSyncRdmaWrite(Ia ia, LmrTriplet[] segments) {
        return core.memory.lmrSyncRdmaWrite(ia, segments);
    }

    /** Returns the provider attribute lmr_sync_req of a host's IA. See {@code MemoryCalls}; returns lmr_sync_req. */
    public boolean lmrSyncRequired(Ia ia) {
        return core.memory.lmrSyncRequired(ia);
    }

    /** dat_rmr_create. See {@code MemoryCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int rmrCreate(Pz pz, Out<Rmr> rmr) {
        return core.memory.rmrCreate(pz, rmr);
    }

    /** dat_rmr_free. See {@code MemoryCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int rmrFree(Rmr rmr) {
        return core.memory.rmrFree(rmr);
    }

    /**
     * dat_rmr_bind (rules 22 to 29). See {@code MemoryCalls}.
     *
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE (RMR, LMR, EP); DAT_INVALID_PARAMETER for bad flags or privileges, a
     *     range outside the LMR, or objects of different protection zones (ARG4, as dapl); DAT_PRIVILEGES_VIOLATION
     *     when the LMR's privileges do not back the RMR's (rule 27); DAT_INVALID_STATE outside CONNECTED (dapl; see
     *     provider.bind_when_disconnected); DAT_INSUFFICIENT_RESOURCES when max_request_dtos are outstanding
     */
    public int rmrBind(Rmr rmr, Lmr lmr, LmrTriplet range, int privileges, Ep ep, long cookie, int flags,
            Out<Integer> context, Out<Long> opId) {
        return core.memory.rmrBind(rmr, lmr, range, privileges, ep, cookie, flags, context, opId);
    }

    /**
     * dat_ep_create. See {@code EpCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE with the subtype of the bad handle, or DAT_INVALID_PARAMETER for
     *     attributes beyond the IA's limits (ARG6)
     */
    public int epCreate(Ia ia, Pz pz, Evd recvEvd, Evd requestEvd, Evd connectEvd, EpAttributes attr, Out<Ep> ep) {
        return core.ep.epCreate(ia, pz, recvEvd, requestEvd, connectEvd, attr, ep);
    }

    /**
     * dat_ep_free. See {@code EpCalls}; returns DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_STATE for an
     * endpoint in RESERVED, PASSIVE_CONNECTION_PENDING or TENTATIVE_CONNECTION_PENDING.
     */
    public int epFree(Ep ep) {
        return core.ep.epFree(ep);
    }

    /** dat_ep_get_status. See {@code EpCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int epGetStatus(Ep ep, Out<Integer> state) {
        return core.ep.epGetStatus(ep, state);
    }

    /**
     * dat_ep_get_status with its idle flags (DAT 2.0 signature). See {@code EpCalls}.
     *
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int epGetStatus(Ep ep, Out<Integer> state, Out<Boolean> recvIdle, Out<Boolean> requestIdle) {
        return core.ep.epGetStatus(ep, state, recvIdle, requestIdle);
    }

    /**
     * dat_ep_connect. See {@code ConnectionCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, DAT_INVALID_STATE (with the state's subtype),
     *     DAT_INVALID_ADDRESS/UNREACHABLE for an unknown host, or DAT_INVALID_PARAMETER
     */
    public int epConnect(Ep ep, String remoteHost, long connQual, long timeoutUs, byte[] privateData) {
        return core.cm.epConnect(ep, remoteHost, connQual, timeoutUs, privateData);
    }

    /**
     * dat_psp_create. See {@code ConnectionCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE (IA or EVD_CR), DAT_CONN_QUAL_IN_USE, or DAT_INVALID_PARAMETER
     */
    public int pspCreate(Ia ia, long connQual, Evd evd, int flags, Out<Psp> psp) {
        return core.cm.pspCreate(ia, connQual, evd, flags, psp);
    }

    /**
     * dat_psp_create_any. See {@code ConnectionCalls}.
     *
     * @return as dat_psp_create, or DAT_CONN_QUAL_UNAVAILABLE when none is left
     */
    public int pspCreateAny(Ia ia, Evd evd, int flags, Out<Psp> psp) {
        return core.cm.pspCreateAny(ia, evd, flags, psp);
    }

    /**
     * dat_ep_reset. See {@code ConnectionCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_STATE in any other state
     */
    public int epReset(Ep ep) {
        return core.cm.epReset(ep);
    }

    /** dat_psp_free. See {@code ConnectionCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int pspFree(Psp psp) {
        return core.cm.pspFree(psp);
    }

    /**
     * dat_cr_accept. See {@code ConnectionCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE (CR or EP), DAT_INVALID_STATE, or DAT_INVALID_PARAMETER
     */
    public int crAccept(Cr cr, Ep ep, byte[] privateData) {
        return core.cm.crAccept(cr, ep, privateData);
    }

    /**
     * dat_cr_handoff. See {@code ConnectionCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_PARAMETER (ARG2) when no PSP of the IA listens there
     */
    public int crHandoff(Cr cr, long handoff) {
        return core.cm.crHandoff(cr, handoff);
    }

    /** dat_cr_reject. See {@code ConnectionCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int crReject(Cr cr) {
        return core.cm.crReject(cr);
    }

    /**
     * dat_ep_disconnect (rules 43, 45, 46). See {@code ConnectionCalls}.
     *
     * @return DAT_SUCCESS (also a no-op in DISCONNECTED), DAT_INVALID_HANDLE, DAT_INVALID_PARAMETER, or
     *     DAT_INVALID_STATE in UNCONNECTED
     */
    public int epDisconnect(Ep ep, int flags) {
        return core.cm.epDisconnect(ep, flags);
    }

    /** dat_ep_post_send. See {@code DtoCalls}; returns see {@link #postRequest}. */
    public int postSend(Ep ep, LmrTriplet[] iov, long cookie, int flags, Out<Long> opId) {
        return core.dto.postSend(ep, iov, cookie, flags, opId);
    }

    /** dat_ep_post_rdma_write. See {@code DtoCalls}; returns see {@link #postRequest}. */
    public int postRdmaWrite(Ep ep, LmrTriplet[] iov, long cookie, RmrTriplet remote, int flags, Out<Long> opId) {
        return core.dto.postRdmaWrite(ep, iov, cookie, remote, flags, opId);
    }

    /** dat_ep_post_rdma_read. See {@code DtoCalls}; returns see {@link #postRequest}. */
    public int postRdmaRead(Ep ep, LmrTriplet[] iov, long cookie, RmrTriplet remote, int flags, Out<Long> opId) {
        return core.dto.postRdmaRead(ep, iov, cookie, remote, flags, opId);
    }

    /**
     * dat_ib_post_rdma_write_immed (IB extension): an RDMA Write whose last packet carries 4 bytes of immediate data
     * and consumes a receive at the remote endpoint, which completes as DAT_IB_DTO_EVENT / DAT_IB_DTO_RECV_IMMED with
     * them. See {@code DtoCalls}.
     *
     * @return as dat_ep_post_rdma_write
     */
    public int postRdmaWriteImmed(Ep ep, LmrTriplet[] iov, long cookie, RmrTriplet remote, int immediate, int flags,
            Out<Long> opId) {
        return core.dto.postRdmaWriteImmed(ep, iov, cookie, remote, immediate, flags, opId);
    }

    /**
     * dat_ib_post_fetch_and_add (IB extension, rule 18): adds {@code addValue} to the 64-bit value at the remote
     * address and places the original value in the 8-byte local_iov. See {@code DtoCalls}.
     *
     * @return as dat_ep_post_rdma_read; DAT_LENGTH_ERROR when local_iov is not 8 bytes or remote_iov is shorter
     */
    public int postFetchAndAdd(Ep ep, long addValue, LmrTriplet[] iov, long cookie, RmrTriplet remote, int flags,
            Out<Long> opId) {
        return core.dto.postAtomic(ep, org.datsim.fabric.hca.WorkRequest.FETCH_ADD, addValue, 0, iov, cookie, remote,
                flags, opId);
    }

    /**
     * dat_ib_post_cmp_and_swap (IB extension, rule 18): stores {@code swapValue} at the remote address if the 64-bit
     * value there equals {@code cmpValue}, and in every case places the original value in the 8-byte local_iov.
     * See {@code DtoCalls}.
     *
     * @return as dat_ep_post_rdma_read; DAT_LENGTH_ERROR when local_iov is not 8 bytes or remote_iov is shorter
     */
    public int postCmpAndSwap(Ep ep, long cmpValue, long swapValue, LmrTriplet[] iov, long cookie, RmrTriplet remote,
            int flags, Out<Long> opId) {
        return core.dto.postAtomic(ep, org.datsim.fabric.hca.WorkRequest.CMP_SWAP, cmpValue, swapValue, iov, cookie,
                remote, flags, opId);
    }

    /**
     * dat_ep_post_recv (rule 40). See {@code DtoCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, DAT_INVALID_PARAMETER, DAT_PRIVILEGES_VIOLATION,
     *     DAT_PROTECTION_VIOLATION or DAT_INSUFFICIENT_RESOURCES
     */
    public int postRecv(Ep ep, LmrTriplet[] iov, long cookie, int flags, Out<Long> opId) {
        return core.dto.postRecv(ep, iov, cookie, flags, opId);
    }

    /**
     * dat_ep_create_with_srq. See {@code EpCalls}.
     *
     * @return as dat_ep_create; also DAT_INVALID_HANDLE/SRQ for a bad SRQ and DAT_INVALID_PARAMETER (ARG2) when the
     *     PZ is not the SRQ's
     */
    public int epCreateWithSrq(Ia ia, Pz pz, Evd recvEvd, Evd requestEvd, Evd connectEvd, Srq srq,
            EpAttributes attr, Out<Ep> ep) {
        return core.ep.epCreateWithSrq(ia, pz, recvEvd, requestEvd, connectEvd, srq, attr, ep);
    }

    /**
     * dat_srq_create. See {@code SrqCalls}.
     *
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE (IA or PZ); DAT_INVALID_PARAMETER (ARG3) for attributes of 0, above
     *     the IA's limits (max_dto_per_ep, max_iov_segments), or a low_watermark other than DAT_SRQ_LW_DEFAULT
     */
    public int srqCreate(Ia ia, Pz pz, int maxRecvDtos, int maxRecvIov, int lowWatermark, Out<Srq> srq) {
        return core.srq.srqCreate(ia, pz, maxRecvDtos, maxRecvIov, lowWatermark, srq);
    }

    /**
     * dat_srq_free. See {@code SrqCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_STATE/SRQ_IN_USE while an endpoint uses it
     */
    public int srqFree(Srq srq) {
        return core.srq.srqFree(srq);
    }

    /**
     * dat_srq_post_recv. See {@code SrqCalls}.
     *
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE; DAT_INVALID_PARAMETER for too many segments (ARG2) or a segment
     *     outside its LMR; DAT_PRIVILEGES_VIOLATION; DAT_PROTECTION_VIOLATION for an LMR of another PZ;
     *     DAT_INSUFFICIENT_RESOURCES/RESOURCE_SRQ when max_recv_dtos receives are outstanding
     */
    public int srqPostRecv(Srq srq, LmrTriplet[] iov, long cookie, Out<Long> opId) {
        return core.srq.srqPostRecv(srq, iov, cookie, opId);
    }

    /**
     * dat_srq_resize. See {@code SrqCalls}.
     *
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE; DAT_INVALID_PARAMETER (ARG2) below 1 or above the IA's limit;
     *     DAT_INVALID_STATE when more receives are outstanding (posted and not reaped) or it is below the low
     *     watermark
     */
    public int srqResize(Srq srq, int maxRecvDtos) {
        return core.srq.srqResize(srq, maxRecvDtos);
    }

    /**
     * dat_srq_set_lw. See {@code SrqCalls}.
     *
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE; DAT_INVALID_PARAMETER (ARG2) when negative or above max_recv_dtos;
     *     DAT_MODEL_NOT_SUPPORTED when provider.srq_low_watermark_event is not_supported (OFA dapl)
     */
    public int srqSetLw(Srq srq, int lowWatermark) {
        return core.srq.srqSetLw(srq, lowWatermark);
    }

    /**
     * Explored runs: what a wait about to take from the EVD would wait for if its consumer were slower (the choice
     * point {@link DatChoices#REAP_ORDER}), or null if no completion that could go before the one it takes is still
     * to come.
     *
     * @param evd the EVD
     * @return the hold, or null
     */
    public ReapHold reapHold(Evd evd) {
        return DatChoices.reapHold(evd);
    }

    /**
     * Explored runs: what a dat_evd_wait that timed out would wait for had an in-flight completion come in time (the
     * choice point {@link DatChoices#LATE_ARRIVAL}), or null if none is sure to come.
     *
     * @param evd the EVD
     * @return the hold, or null
     */
    public ReapHold arrivalHold(Evd evd) {
        return DatChoices.arrivalHold(evd);
    }

    /**
     * Explored runs: how many request operations of an endpoint have not had their completions reported (an abrupt
     * dat_ep_disconnect may be held until some of them have, {@link DatChoices#DISCONNECT_ORDER}).
     *
     * @param ep the endpoint, or anything else (0)
     * @return the count
     */
    public int unfinishedRequests(Object ep) {
        return ep instanceof Ep ? DatChoices.unfinished((Ep) ep).size() : 0;
    }

    /**
     * Explored runs: a hold until the first {@code n} unfinished request operations of an endpoint are reported.
     *
     * @param ep the endpoint
     * @param n how many, from the oldest
     * @return the hold
     */
    public CallHold untilReported(Ep ep, int n) {
        java.util.List<org.datsim.fabric.hca.WorkRequest> all = DatChoices.unfinished(ep);
        return new CallHold(all.subList(0, Math.min(n, all.size())));
    }

    /**
     * Explored runs: registers or removes what to run whenever a DTO completion is reported (a wait held by a
     * {@link ReapHold} looks again).
     *
     * @param wake what to run
     * @param add true to register, false to remove
     */
    public void watchReports(Runnable wake, boolean add) {
        if (add) {
            core.reportWatchers.add(wake);
        } else {
            core.reportWatchers.remove(wake);
        }
    }

    /** dat_cno_create. See {@code CnoCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE/IA. */
    public int cnoCreate(Ia ia, String agent, Out<Cno> cno) {
        return core.cno.cnoCreate(ia, agent, cno);
    }

    /**
     * dat_cno_free. See {@code CnoCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE/CNO, or DAT_INVALID_STATE/CNO_IN_USE while an EVD references it or a
     *     consumer waits on it
     */
    public int cnoFree(Cno cno) {
        return core.cno.cnoFree(cno);
    }

    /** dat_cno_modify_agent. See {@code CnoCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE/CNO. */
    public int cnoModifyAgent(Cno cno, String agent) {
        return core.cno.cnoModifyAgent(cno, agent);
    }

    /**
     * The argument checks of dat_cno_wait, made when the call starts. See {@code CnoCalls}.
     *
     * @return DAT_SUCCESS if the wait may proceed, DAT_INVALID_HANDLE/CNO or DAT_INVALID_PARAMETER (ARG2)
     */
    public int cnoWaitCheck(Cno cno, long timeoutUs) {
        return core.cno.cnoWaitCheck(cno, timeoutUs);
    }

    /**
     * Takes the CNO's pending notification, the end of a satisfied dat_cno_wait. See {@code CnoCalls}.
     *
     * @return the notifying EVD (a hint), or null if none is pending
     */
    public Evd cnoTake(Cno cno) {
        return core.cno.cnoTake(cno);
    }

    /**
     * Registers or removes a consumer blocked in dat_cno_wait. See {@code CnoCalls}.
     *
     */
    public void cnoWaiter(Cno cno, Runnable wake, boolean add) {
        core.cno.cnoWaiter(cno, wake, add);
    }

    /**
     * dat_evd_modify_cno. See {@code CnoCalls}.
     *
     * @return DAT_SUCCESS, or DAT_INVALID_HANDLE for a bad EVD or a CNO that is freed or of another IA (CNO
     *     subtype)
     */
    public int evdModifyCno(Evd evd, Cno cno) {
        return core.cno.evdModifyCno(evd, cno);
    }

    /**
     * dat_evd_create with a CNO. See {@code EvdCalls}.
     *
     * @return as without a CNO, and DAT_INVALID_HANDLE/CNO for a CNO that is freed or of another IA
     */
    public int evdCreate(Ia ia, int qlen, Cno cno, int flags, Out<Evd> evd) {
        return core.evd.evdCreate(ia, qlen, cno, flags, evd);
    }

    /**
     * dat_rsp_create. See {@code RspCalls}.
     *
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE (IA, EP or EVD_CR); DAT_MODEL_NOT_SUPPORTED for a null endpoint;
     *     DAT_INVALID_STATE with the endpoint's state when it is not UNCONNECTED; DAT_CONN_QUAL_IN_USE when a PSP
     *     or RSP of the host listens there
     */
    public int rspCreate(Ia ia, long connQual, Ep ep, Evd evd, Out<Rsp> rsp) {
        return core.rsp.rspCreate(ia, connQual, ep, evd, rsp);
    }

    /** dat_rsp_free. See {@code RspCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE/RSP. */
    public int rspFree(Rsp rsp) {
        return core.rsp.rspFree(rsp);
    }

    /**
     * dat_ep_modify. See {@code EpExtraCalls}.
     *
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE; DAT_INVALID_PARAMETER (ARG3) for values beyond the IA's limits or
     *     breaking the EVD sharing rule (rule 9); DAT_INVALID_STATE with the endpoint's state in any other state,
     *     or for new recv_completion_flags with receives posted
     */
    public int epModify(Ep ep, EpAttributes attr) {
        return core.epx.epModify(ep, attr);
    }

    /**
     * dat_ep_dup_connect. See {@code EpExtraCalls}.
     *
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE (EP, or the dup EP with subtype DAT_INVALID_HANDLE2);
     *     DAT_INVALID_STATE when the dup endpoint is not connected or the endpoint not UNCONNECTED; else as
     *     dat_ep_connect
     */
    public int epDupConnect(Ep ep, Ep dupEp, long timeoutUs, byte[] privateData) {
        return core.epx.epDupConnect(ep, dupEp, timeoutUs, privateData);
    }

    /** dat_ep_recv_query. See {@code EpExtraCalls}; returns DAT_SUCCESS or DAT_INVALID_HANDLE. */
    public int epRecvQuery(Ep ep, Out<Integer> nbufsAllocated, Out<Integer> bufsAllocSpan) {
        return core.epx.epRecvQuery(ep, nbufsAllocated, bufsAllocSpan);
    }

    /**
     * dat_ep_set_watermark. See {@code EpExtraCalls}.
     *
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_PARAMETER (ARG2, ARG3) for a negative value other
     *     than DAT_WATERMARK_INFINITE
     */
    public int epSetWatermark(Ep ep, int soft, int hard) {
        return core.epx.epSetWatermark(ep, soft, hard);
    }

    /**
     * dat_registry_list_providers. See {@code RegistryCalls}.
     *
     * @return DAT_SUCCESS, or DAT_INVALID_PARAMETER when dat_provider_list is too small
     */
    public int registryListProviders(DatHost host, int maxToReturn, Out<Integer> numberEntries,
            Out<List<String>> iaNames) {
        return core.registry.registryListProviders(host, maxToReturn, numberEntries, iaNames);
    }

    /**
     * dat_registry_add_provider. See {@code RegistryCalls}.
     *
     * @return DAT_SUCCESS; DAT_INVALID_PARAMETER (ARG2) for an empty name or one of DAT_NAME_MAX_LENGTH or more;
     *     DAT_PROVIDER_ALREADY_REGISTERED when the name is registered
     */
    public int registryAddProvider(DatHost host, String iaName) {
        return core.registry.registryAddProvider(host, iaName);
    }

    /**
     * dat_registry_remove_provider. See {@code RegistryCalls}.
     *
     * @return DAT_SUCCESS; DAT_INVALID_PARAMETER (ARG2) when the name is not registered; DAT_PROVIDER_IN_USE while
     *     an IA opened by that name is open
     */
    public int registryRemoveProvider(DatHost host, String iaName) {
        return core.registry.registryRemoveProvider(host, iaName);
    }

    /**
     * dat_provider_init (a void function). See {@code RegistryCalls}.
     *
     * @return DAT_SUCCESS (the call has no return value)
     */
    public int providerInit(DatHost host, String iaName) {
        return core.registry.providerInit(host, iaName);
    }

    /**
     * dat_provider_fini (a void function). See {@code RegistryCalls}.
     *
     * @return DAT_SUCCESS (the call has no return value)
     */
    public int providerFini(DatHost host, String iaName) {
        return core.registry.providerFini(host, iaName);
    }
}

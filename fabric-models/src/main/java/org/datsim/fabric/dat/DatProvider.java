package org.datsim.fabric.dat;

import java.util.List;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.hca.QueuePair;
import org.datsim.fabric.hca.WorkRequest;

/**
 * The DAT provider of the simulated fabric. Each method is one DAT call made by a consumer on a host; it validates
 * its arguments as the man pages say, returns the DAT_RETURN value (see {@link DatReturn}), and fills its
 * {@link Out} parameters only on success. Asynchronous work (data transfer, connection management) proceeds in
 * simulated time and ends in events on EVDs.
 *
 * <p>Supported here: dat_ia_open/close, dat_pz_create/free, dat_evd_create/free/wait/dequeue, dat_lmr_create/free,
 * dat_lmr_sync_rdma_read/write, dat_rmr_create/bind/free, dat_ep_create/free/connect/disconnect/get_status,
 * dat_ep_post_send/recv/rdma_write/rdma_read,
 * dat_psp_create/free, dat_cr_accept/reject, dat_strerror.
 */
public final class DatProvider {

    private static final int MAX_PRIVATE_DATA = 56;

    private final Simulator sim;
    private final TraceSource<TraceEvent> trace;
    private final List<DatHost> hosts;
    private final long cmProcessing;
    private final int maxEvdQlen;
    private final int maxDtoPerEp;
    private final long maxMessageSize;
    private final int maxIov;
    private final boolean bindAsDtoEvent;
    private final int maxReadsIn;
    private final int maxReadsOut;
    private final boolean bindFlushWhenDisconnected;
    private long nextOpId = 1;

    /**
     * Creates the provider of a fabric.
     *
     * @param sim the simulator
     * @param trace where provider events are traced
     * @param hosts the hosts, in id order
     * @param params the fabric parameters
     */
    public DatProvider(Simulator sim, TraceSource<TraceEvent> trace, List<DatHost> hosts, Params params) {
        this.sim = sim;
        this.trace = trace;
        this.hosts = List.copyOf(hosts);
        this.cmProcessing = params.get(FabricParams.CM_PROCESSING);
        this.maxEvdQlen = (int) params.get(FabricParams.IA_MAX_EVD_QLEN);
        this.maxDtoPerEp = (int) params.get(FabricParams.IA_MAX_DTO_PER_EP);
        this.maxMessageSize = params.get(FabricParams.IA_MAX_MESSAGE_SIZE);
        this.maxIov = (int) params.get(FabricParams.IA_MAX_IOV);
        this.bindAsDtoEvent = "dto_bind_mw".equals(params.choice(FabricParams.PROVIDER_BIND_EVENT));
        this.maxReadsIn = (int) params.get(FabricParams.IA_MAX_RDMA_READ_IN);
        this.maxReadsOut = (int) params.get(FabricParams.IA_MAX_RDMA_READ_OUT);
        this.bindFlushWhenDisconnected = "flush".equals(params.choice(FabricParams.PROVIDER_BIND_DISCONNECTED));
        for (DatHost h : this.hosts) {
            h.hca.setCmListener(m -> sim.schedule(cmProcessing, () -> onCm(h, (CmMessage) m)));
        }
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
        return hosts;
    }

    /**
     * Finds a host by name.
     *
     * @param name the host name
     * @return the host, or null
     */
    public DatHost host(String name) {
        for (DatHost h : hosts) {
            if (h.name.equals(name)) {
                return h;
            }
        }
        return null;
    }

    private static int err(int type, int subtype) {
        return DatReturn.error(type, subtype);
    }

    private static boolean bad(DatHandle h, Class<?> type) {
        return h == null || h.freed || !type.isInstance(h);
    }

    // ------------------------------------------------------------------ IA

    /**
     * dat_ia_open: opens the interface adapter named {@code iaName} on the calling host and creates its async EVD.
     *
     * @param host the calling host
     * @param iaName the IA name (the host's port is registered as {@link DatHost#DEFAULT_IA_NAME})
     * @param asyncEvdQlen the async EVD's minimum queue length
     * @param ia receives the IA handle
     * @return DAT_SUCCESS; DAT_PROVIDER_NOT_FOUND/DAT_NAME_NOT_REGISTERED for an unknown name;
     *     DAT_INVALID_PARAMETER for a bad queue length
     */
    public int iaOpen(DatHost host, String iaName, int asyncEvdQlen, Out<Ia> ia) {
        if (!DatHost.DEFAULT_IA_NAME.equals(iaName)) {
            return err(DatReturn.PROVIDER_NOT_FOUND, DatReturn.SUB_NAME_NOT_REGISTERED);
        }
        if (asyncEvdQlen < 1 || asyncEvdQlen > maxEvdQlen) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        Ia opened = new Ia(host, iaName, host.nextName("ia"));
        opened.asyncEvd = new Evd(host.nextName("evd"), opened, asyncEvdQlen, Dat.EVD_ASYNC_FLAG);
        opened.children.add(opened.asyncEvd);
        ia.value = opened;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_ia_close. A graceful close of an IA that still has objects fails; an abrupt close destroys them all,
     * disconnecting endpoints abruptly.
     *
     * @param ia the IA
     * @param flags DAT_CLOSE_ABRUPT_FLAG or DAT_CLOSE_GRACEFUL_FLAG
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, DAT_INVALID_PARAMETER or DAT_INVALID_STATE/IA_IN_USE
     */
    public int iaClose(Ia ia, int flags) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        if (flags != Dat.CLOSE_ABRUPT_FLAG && flags != Dat.CLOSE_GRACEFUL_FLAG) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        if (flags == Dat.CLOSE_GRACEFUL_FLAG && ia.liveChildren() > 0) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_IA_IN_USE);
        }
        for (DatHandle h : ia.children) {
            if (h instanceof Ep && !h.freed) {
                abortEndpoint((Ep) h);
            }
            if (h instanceof Lmr) {
                ia.host.byLmrContext.remove(((Lmr) h).lmrContext);
                ia.host.byRmrContext.remove(((Lmr) h).rmrContext);
            }
            if (h instanceof Psp && !h.freed) {
                ia.host.psps.remove(((Psp) h).connQual);
            }
            h.freed = true;
        }
        ia.freed = true;
        for (DatHandle h : ia.children) {
            if (h instanceof Evd && ((Evd) h).waiter != null) {
                ((Evd) h).waiter.run(); // a consumer blocked on it returns DAT_ABORT
            }
        }
        return DatReturn.SUCCESS;
    }

    // ------------------------------------------------------------------ PZ

    /**
     * dat_pz_create.
     *
     * @param ia the IA
     * @param pz receives the protection zone
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int pzCreate(Ia ia, Out<Pz> pz) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        Pz created = new Pz(ia.host.nextName("pz"), ia);
        ia.children.add(created);
        pz.value = created;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_pz_free.
     *
     * @param pz the protection zone
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_STATE/PZ_IN_USE while EPs or LMRs use it
     */
    public int pzFree(Pz pz) {
        if (bad(pz, Pz.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_PZ);
        }
        if (pz.users > 0) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_PZ_IN_USE);
        }
        pz.freed = true;
        return DatReturn.SUCCESS;
    }

    // ------------------------------------------------------------------ EVD

    /**
     * dat_evd_create.
     *
     * @param ia the IA
     * @param qlen evd_min_qlen
     * @param flags the DAT_EVD_FLAGS of the streams it accepts
     * @param evd receives the EVD
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_PARAMETER for a bad qlen (ARG2) or flags (ARG4)
     */
    public int evdCreate(Ia ia, int qlen, int flags, Out<Evd> evd) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        if (qlen < 1 || qlen > maxEvdQlen) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        if (flags == 0 || (flags & ~0x1F1) != 0 || (flags & Dat.EVD_ASYNC_FLAG) != 0) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG4);
        }
        Evd created = new Evd(ia.host.nextName("evd"), ia, qlen, flags);
        ia.children.add(created);
        evd.value = created;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_evd_free.
     *
     * @param evd the EVD
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_STATE/EVD_IN_USE while streams feed it
     */
    public int evdFree(Evd evd) {
        if (bad(evd, Evd.class)) {
            return err(DatReturn.INVALID_HANDLE, 0);
        }
        if (evd.users > 0 || evd.waiter != null || evd == evd.ia.asyncEvd) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EVD_IN_USE);
        }
        evd.freed = true;
        return DatReturn.SUCCESS;
    }

    /**
     * The argument and state checks of dat_evd_wait, made when the call starts (rules 4 and 5).
     *
     * @param evd the EVD
     * @param timeoutUs the timeout in microseconds ({@link Dat#TIMEOUT_INFINITE} never expires)
     * @param threshold the number of events to wait for
     * @return DAT_SUCCESS if the wait may proceed, else its error
     */
    public int evdWaitCheck(Evd evd, long timeoutUs, int threshold) {
        if (bad(evd, Evd.class)) {
            return err(DatReturn.INVALID_HANDLE, 0);
        }
        if (timeoutUs < 0 || timeoutUs > Dat.TIMEOUT_INFINITE) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        if (threshold < 1 || threshold > evd.qlen) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG3);
        }
        if (evd.waiter != null) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EVD_WAITER);
        }
        if (threshold != 1) {
            // Rule 6: a stream whose notifications the consumer controls (UNSIGNALLED) allows only threshold 1.
            for (Ep ep : evd.feeders) {
                int flags = (ep.requestEvd == evd ? ep.attr.requestCompletionFlags() : 0)
                        | (ep.recvEvd == evd ? ep.attr.recvCompletionFlags() : 0);
                if ((flags & Dat.COMPLETION_UNSIGNALLED_FLAG) != 0) {
                    return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EVD_CONFIG_THRESHOLD);
                }
            }
        }
        if (!evd.waitable) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EVD_UNWAITABLE);
        }
        return DatReturn.SUCCESS;
    }

    /**
     * Registers the consumer blocked in dat_evd_wait, who is woken when an event is queued.
     *
     * @param evd the EVD
     * @param wake what to run when an event arrives, or null to unregister
     */
    public void evdSetWaiter(Evd evd, Runnable wake) {
        evd.waiter = wake;
    }

    /**
     * dat_evd_dequeue, and the final step of a satisfied dat_evd_wait: takes the oldest event.
     *
     * @param evd the EVD
     * @param event receives the event
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, DAT_QUEUE_EMPTY, or DAT_INVALID_STATE/EVD_WAITER while a consumer
     *     waits on it (rule 4)
     */
    public int evdDequeue(Evd evd, Out<DatEvent> event) {
        if (bad(evd, Evd.class)) {
            return err(DatReturn.INVALID_HANDLE, 0);
        }
        if (evd.waiter != null) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EVD_WAITER);
        }
        DatEvent e = evd.queue.pollFirst();
        if (e == null) {
            return err(DatReturn.QUEUE_EMPTY, 0);
        }
        if (e.number == Dat.DTO_COMPLETION_EVENT && e.operation != Dat.DTO_RECEIVE && e.ep != null) {
            // Rule 11: request slots of suppressed completions are freed when a later signalled one is reaped.
            e.ep.requestsInFlight -= e.ep.suppressedUnreaped;
            e.ep.suppressedUnreaped = 0;
        }
        event.value = e;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_evd_set_unwaitable: later dat_evd_wait calls return DAT_INVALID_STATE at once, and a consumer already
     * blocked in dat_evd_wait is woken and returns DAT_INVALID_STATE. Events still arrive and can be dequeued.
     *
     * @param evd the EVD
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int evdSetUnwaitable(Evd evd) {
        if (bad(evd, Evd.class)) {
            return err(DatReturn.INVALID_HANDLE, 0);
        }
        evd.waitable = false;
        wake(evd);
        return DatReturn.SUCCESS;
    }

    /**
     * dat_evd_clear_unwaitable: makes the EVD waitable again.
     *
     * @param evd the EVD
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int evdClearUnwaitable(Evd evd) {
        if (bad(evd, Evd.class)) {
            return err(DatReturn.INVALID_HANDLE, 0);
        }
        evd.waitable = true;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_evd_enable or dat_evd_disable: whether event arrivals affect the EVD's CNO. This provider has no CNOs yet,
     * so the state is kept (and reported by queries) and has no other effect, as the man pages say of an EVD without
     * a CNO. Either call on an EVD already in that state is a no-op.
     *
     * @param evd the EVD
     * @param enable true for dat_evd_enable
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int evdSetEnabled(Evd evd, boolean enable) {
        if (bad(evd, Evd.class)) {
            return err(DatReturn.INVALID_HANDLE, 0);
        }
        evd.enabled = enable;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_evd_resize: changes the queue length without losing events; refused with DAT_INVALID_STATE while more
     * events are queued than the new length holds.
     *
     * @param evd the EVD
     * @param qlen the new evd_min_qlen
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, DAT_INVALID_PARAMETER (ARG2) or DAT_INVALID_STATE
     */
    public int evdResize(Evd evd, int qlen) {
        if (bad(evd, Evd.class)) {
            return err(DatReturn.INVALID_HANDLE, 0);
        }
        if (qlen < 1 || qlen > maxEvdQlen) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        if (qlen < evd.queue.size()) {
            return err(DatReturn.INVALID_STATE, 0);
        }
        evd.qlen = qlen;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_evd_post_se: queues a consumer's software event (DAT_SOFTWARE_EVENT). A full queue refuses it with
     * DAT_QUEUE_FULL; that is not an overflow.
     *
     * @param evd the EVD
     * @param pointer the event's opaque pointer, returned in the event's cookie
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE or DAT_QUEUE_FULL
     */
    public int evdPostSe(Evd evd, long pointer) {
        if (bad(evd, Evd.class)) {
            return err(DatReturn.INVALID_HANDLE, 0);
        }
        if (evd.queue.size() >= evd.qlen) {
            return err(DatReturn.QUEUE_FULL, 0);
        }
        post(evd, new DatEvent(Dat.SOFTWARE_EVENT, evd, null, pointer, -1, 0, -1, null, -1, sim.now(), false));
        return DatReturn.SUCCESS;
    }

    // ------------------------------------------------------------------ handles

    /**
     * dat_set_consumer_context.
     *
     * @param handle any DAT handle
     * @param context the consumer's value
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int setConsumerContext(DatHandle handle, long context) {
        if (handle == null || handle.freed) {
            return err(DatReturn.INVALID_HANDLE, 0);
        }
        handle.consumerContext = context;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_get_consumer_context.
     *
     * @param handle any DAT handle
     * @param context receives the value last set (0 if none was)
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int getConsumerContext(DatHandle handle, Out<Long> context) {
        if (handle == null || handle.freed) {
            return err(DatReturn.INVALID_HANDLE, 0);
        }
        context.value = handle.consumerContext;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_get_handle_type.
     *
     * @param handle any DAT handle
     * @param type receives the DAT_HANDLE_TYPE
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int getHandleType(DatHandle handle, Out<Integer> type) {
        if (handle == null || handle.freed) {
            return err(DatReturn.INVALID_HANDLE, 0);
        }
        type.value = handle.handleType();
        return DatReturn.SUCCESS;
    }

    /**
     * dat_ia_query: the IA and provider attributes this provider has, with the values of the host's parameters.
     *
     * @param ia the IA
     * @param attributes receives the attributes by their header names, in a fixed order
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int iaQuery(Ia ia, Out<java.util.Map<String, Long>> attributes) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        java.util.Map<String, Long> a = new java.util.LinkedHashMap<>();
        a.put("max_dto_per_ep", (long) maxDtoPerEp);
        a.put("max_rdma_read_per_ep_in", (long) maxReadsIn);
        a.put("max_rdma_read_per_ep_out", (long) maxReadsOut);
        a.put("max_evd_qlen", (long) maxEvdQlen);
        a.put("max_iov_segments_per_dto", (long) maxIov);
        a.put("max_message_size", maxMessageSize);
        a.put("max_rdma_size", maxMessageSize);
        a.put("lmr_sync_req", lmrSyncRequired(ia) ? 1L : 0L);
        attributes.value = a;
        return DatReturn.SUCCESS;
    }

    /**
     * The dat_*_query calls of the objects other than the IA: the parameters of the object as a map of field names
     * (those of the DAT_*_PARAM structures) to numbers, in a fixed order. Handles are reported by their presence only;
     * states and flags by their numeric values.
     *
     * @param handle the object (EP, EVD, LMR, RMR, PZ, PSP or CR)
     * @param type the DAT_HANDLE_TYPE the calling function expects
     * @param params receives the parameters
     * @return DAT_SUCCESS, or DAT_INVALID_HANDLE if the handle is not a live object of that type
     */
    public int query(DatHandle handle, int type, Out<java.util.Map<String, Long>> params) {
        if (handle == null || handle.freed || handle.handleType() != type) {
            return err(DatReturn.INVALID_HANDLE, querySubtype(type));
        }
        java.util.Map<String, Long> p = new java.util.LinkedHashMap<>();
        if (handle instanceof Ep) {
            Ep ep = (Ep) handle;
            p.put("ep_state", (long) ep.state);
            p.put("remote_port_qual", ep.remoteConnQual);
            p.put("max_message_size", ep.attr.maxMessageSize());
            p.put("max_rdma_size", ep.attr.maxRdmaSize());
            p.put("max_recv_dtos", (long) ep.attr.maxRecvDtos());
            p.put("max_request_dtos", (long) ep.attr.maxRequestDtos());
            p.put("max_recv_iov", (long) ep.attr.maxRecvIov());
            p.put("max_request_iov", (long) ep.attr.maxRequestIov());
            p.put("max_rdma_read_in", (long) ep.attr.maxRdmaReadIn());
            p.put("max_rdma_read_out", (long) ep.attr.maxRdmaReadOut());
            p.put("request_completion_flags", (long) ep.attr.requestCompletionFlags());
            p.put("recv_completion_flags", (long) ep.attr.recvCompletionFlags());
        } else if (handle instanceof Evd) {
            Evd evd = (Evd) handle;
            p.put("evd_qlen", (long) evd.qlen);
            p.put("evd_flags", (long) evd.flags);
            p.put("evd_state", (long) ((evd.enabled ? 0x01 : 0x02) | (evd.waitable ? 0x04 : 0x08)));
            p.put("evd_size", (long) evd.queue.size());
        } else if (handle instanceof Lmr) {
            Lmr lmr = (Lmr) handle;
            p.put("lmr_context", (long) lmr.lmrContext & 0xffffffffL);
            p.put("rmr_context", (long) lmr.rmrContext & 0xffffffffL);
            p.put("registered_address", lmr.address);
            p.put("registered_size", lmr.length);
            p.put("mem_priv", (long) lmr.privileges);
        } else if (handle instanceof Rmr) {
            Rmr rmr = (Rmr) handle;
            p.put("rmr_context", (long) rmr.activeContext & 0xffffffffL);
            p.put("target_address", rmr.address);
            p.put("segment_length", rmr.length);
            p.put("mem_priv", (long) rmr.privileges);
        } else if (handle instanceof Pz) {
            p.put("ia", 1L);
        } else if (handle instanceof Psp) {
            Psp psp = (Psp) handle;
            p.put("conn_qual", psp.connQual);
            p.put("psp_flags", (long) psp.flags);
        } else if (handle instanceof Cr) {
            Cr cr = (Cr) handle;
            p.put("remote_port_qual", cr.psp.connQual);
            p.put("private_data_size", (long) cr.privateData.length);
        }
        params.value = p;
        return DatReturn.SUCCESS;
    }

    private static int querySubtype(int type) {
        switch (type) {
            case DatHandle.TYPE_EP:
                return DatReturn.SUB_INVALID_HANDLE_EP;
            case DatHandle.TYPE_LMR:
                return DatReturn.SUB_INVALID_HANDLE_LMR;
            case DatHandle.TYPE_RMR:
                return DatReturn.SUB_INVALID_HANDLE_RMR;
            case DatHandle.TYPE_PZ:
                return DatReturn.SUB_INVALID_HANDLE_PZ;
            case DatHandle.TYPE_PSP:
                return DatReturn.SUB_INVALID_HANDLE_PSP;
            case DatHandle.TYPE_CR:
                return DatReturn.SUB_INVALID_HANDLE_CR;
            default:
                return 0;
        }
    }

    private void post(Evd evd, DatEvent e) {
        if (evd == null || evd.freed) {
            return;
        }
        if (evd.queue.size() >= evd.qlen) {
            evd.overflows++;
            if (trace.isEnabled()) {
                trace.fire(TraceEvent.of(sim.now(), TraceEvent.ERROR, evd.ia.host.name).attr("evd", evd.name())
                        .attr("error", "DAT_ASYNC_ERROR_EVD_OVERFLOW").attr("lost_event", e.numberName()));
            }
            Evd async = evd.ia.asyncEvd;
            if (async != evd && async.queue.size() < async.qlen) {
                async.queue.addLast(new DatEvent(Dat.ASYNC_ERROR_EVD_OVERFLOW, async, null, 0, -1, 0, -1, null, -1,
                        sim.now(), false));
                wake(async);
            }
            // Rule 8: on InfiniBand a completion-queue overflow is fatal for every queue pair feeding it.
            for (Ep ep : List.copyOf(evd.feeders)) {
                if (ep.state == Dat.EP_STATE_CONNECTED || ep.state == Dat.EP_STATE_DISCONNECT_PENDING) {
                    ep.ia.host.hca.fail(ep.qp, null, Dat.DTO_ERR_LOCAL_EP);
                }
            }
            return;
        }
        evd.queue.addLast(e);
        if (!e.unsignalled) {
            wake(evd);
        }
    }

    private void wake(Evd evd) {
        if (evd.waiter != null) {
            evd.waiter.run();
        }
    }

    private void postConnectionEvent(Ep ep, int number) {
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), "event", ep.ia.host.name).ep(ep.name())
                    .attr("event", Dat.EVENTS.name(number)).attr("state", ep.stateName()));
        }
        post(ep.connectEvd, new DatEvent(number, ep.connectEvd, ep, 0, -1, 0, -1, null, -1, sim.now(), false));
    }

    // ------------------------------------------------------------------ LMR

    /**
     * dat_lmr_create for DAT_MEM_TYPE_VIRTUAL memory.
     *
     * @param ia the IA
     * @param address the region's virtual address, or -1 to have the host allocate one
     * @param length the region's length in bytes
     * @param pz the protection zone
     * @param privileges the DAT_MEM_PRIV flags
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
        if ((privileges & ~Dat.MEM_PRIV_ALL) != 0) {
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

    private void unbindNow(Rmr rmr) {
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
     * @param privileges DAT_MEM_PRIV_REMOTE_READ_FLAG and/or DAT_MEM_PRIV_REMOTE_WRITE_FLAG
     * @param ep the endpoint whose request queue carries the bind
     * @param cookie the user cookie of the completion
     * @param flags completion flags (SUPPRESS, UNSIGNALLED, BARRIER_FENCE)
     * @param context receives the new rmr_context
     * @param opId receives the operation id used in the trace
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE (RMR, LMR, EP); DAT_INVALID_PARAMETER for bad flags or privileges, a
     *     range outside the LMR, or objects of different protection zones (ARG4, as dapl); DAT_PRIVILEGES_VIOLATION
     *     when the LMR's privileges do not back the RMR's (rule 27); DAT_INVALID_STATE outside CONNECTED (dapl;
     *     see provider.bind_when_disconnected); DAT_INSUFFICIENT_RESOURCES when max_request_dtos are outstanding
     */
    public int rmrBind(Rmr rmr, Lmr lmr, LmrTriplet range, int privileges, Ep ep, long cookie, int flags,
            Out<Integer> context, Out<Long> opId) {
        if (bad(rmr, Rmr.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_RMR);
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
        if ((privileges & ~(Dat.MEM_PRIV_REMOTE_READ | Dat.MEM_PRIV_REMOTE_WRITE)) != 0) {
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
                    || ((privileges & Dat.MEM_PRIV_REMOTE_WRITE) != 0
                            && (lmr.privileges & Dat.MEM_PRIV_LOCAL_WRITE) == 0)) {
                return err(DatReturn.PRIVILEGES_VIOLATION, 0); // rule 27
            }
        }
        boolean flushNow = false;
        if (ep.state != Dat.EP_STATE_CONNECTED) {
            if (ep.state == Dat.EP_STATE_DISCONNECTED && bindFlushWhenDisconnected) {
                flushNow = true; // rule 29, the specification's behaviour
            } else {
                return err(DatReturn.INVALID_STATE, ep.stateSubtype()); // rule 29, dapl's behaviour
            }
        }
        if (ep.requestEvd == null) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_EVD_REQUEST);
        }
        if (ep.requestsInFlight >= ep.attr.maxRequestDtos()) {
            return err(DatReturn.INSUFFICIENT_RESOURCES, DatReturn.SUB_RESOURCE_TEP); // rule 22
        }
        int newContext = unbind ? 0 : ep.ia.host.nextContext();
        WorkRequest wr = new WorkRequest(nextOpId++, WorkRequest.BIND, ep.qp, cookie, flags, new long[0],
                new long[0], unbind ? 0 : range.address(), newContext);
        wr.bindTarget = new Rmr.Binding(rmr, unbind ? null : lmr, range.address(), range.length(), privileges,
                newContext);
        if (!unbind) {
            lmr.bindRefs++; // held by the bind in flight; given back if it fails or is flushed
        }
        ep.requestsInFlight++;
        rmr.context = newContext;
        rmr.requestedAddress = range.address();
        rmr.requestedLength = range.length();
        traceOp(ep, wr, TraceEvent.POST);
        if (flushNow) {
            ep.qp.hca().flush(ep.qp);
        }
        ep.ia.host.hca.postRequest(wr);
        context.value = newContext;
        opId.value = wr.opId;
        return DatReturn.SUCCESS;
    }

    // ------------------------------------------------------------------ EP

    /**
     * dat_ep_create.
     *
     * @param ia the IA
     * @param pz the protection zone
     * @param recvEvd the EVD for receive completions (DTO stream), or null
     * @param requestEvd the EVD for request completions (DTO stream), or null
     * @param connectEvd the EVD for connection events, or null
     * @param attr the attributes, or null for the defaults
     * @param ep receives the endpoint
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE with the subtype of the bad handle, or DAT_INVALID_PARAMETER for
     *     attributes beyond the IA's limits (ARG6)
     */
    public int epCreate(Ia ia, Pz pz, Evd recvEvd, Evd requestEvd, Evd connectEvd, EpAttributes attr, Out<Ep> ep) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        if (bad(pz, Pz.class) || pz.ia != ia) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_PZ);
        }
        if (recvEvd != null && (recvEvd.freed || recvEvd.ia != ia || (recvEvd.flags & Dat.EVD_DTO_FLAG) == 0)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EVD_RECV);
        }
        if (requestEvd != null && (requestEvd.freed || requestEvd.ia != ia
                || (requestEvd.flags & Dat.EVD_DTO_FLAG) == 0)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EVD_REQUEST);
        }
        if (connectEvd != null && (connectEvd.freed || connectEvd.ia != ia
                || (connectEvd.flags & Dat.EVD_CONNECTION_FLAG) == 0)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EVD_CONN);
        }
        EpAttributes a = attr != null ? attr : EpAttributes.defaults();
        if (a.maxRecvDtos() < 1 || a.maxRecvDtos() > maxDtoPerEp || a.maxRequestDtos() < 1
                || a.maxRequestDtos() > maxDtoPerEp || a.maxRecvIov() < 1 || a.maxRecvIov() > maxIov
                || a.maxRequestIov() < 1 || a.maxRequestIov() > maxIov || a.maxMessageSize() > maxMessageSize
                || a.maxRdmaSize() > maxMessageSize) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG6);
        }
        if ((a.recvCompletionFlags() & Dat.COMPLETION_SUPPRESS_FLAG) != 0) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG6); // rule 16, as dapl
        }
        int requestFlags = Dat.COMPLETION_UNSIGNALLED_FLAG | Dat.COMPLETION_EVD_THRESHOLD_FLAG
                | Dat.COMPLETION_SUPPRESS_FLAG;
        int recvFlags = Dat.COMPLETION_UNSIGNALLED_FLAG | Dat.COMPLETION_EVD_THRESHOLD_FLAG
                | Dat.COMPLETION_SOLICITED_WAIT_FLAG;
        if ((a.requestCompletionFlags() & ~requestFlags) != 0 || (a.recvCompletionFlags() & ~recvFlags) != 0) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG6);
        }
        if ((a.recvCompletionFlags() & Dat.COMPLETION_SOLICITED_WAIT_FLAG) != 0) {
            // Solicited-wait receive notification (rule 14) is not modelled yet; say so rather than ignore it.
            return err(DatReturn.MODEL_NOT_SUPPORTED, 0);
        }
        if (a.maxRdmaReadIn() < 0 || a.maxRdmaReadOut() < 0) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG6);
        }
        // Rule 49: requested read limits are clamped to the IA's, as dapl does (DAPL_MIN).
        a = new EpAttributes(a.maxMessageSize(), a.maxRdmaSize(), a.maxRecvDtos(), a.maxRequestDtos(),
                a.maxRecvIov(), a.maxRequestIov(), a.requestCompletionFlags(), a.recvCompletionFlags(),
                Math.min(a.maxRdmaReadIn(), maxReadsIn), Math.min(a.maxRdmaReadOut(), maxReadsOut));
        DatHost h = ia.host;
        String name = h.nextName("ep");
        Ep created = new Ep(name, ia, pz, recvEvd, requestEvd, connectEvd, a, h.hca.createQueuePair(name));
        created.qp.setReadCredits(a.maxRdmaReadIn(), a.maxRdmaReadOut());
        created.qp.setListener(new EpListener(created));
        pz.users++;
        for (Evd e : new Evd[] {recvEvd, requestEvd, connectEvd}) {
            if (e != null) {
                e.users++;
            }
        }
        if (recvEvd != null) {
            recvEvd.feeders.add(created);
        }
        if (requestEvd != null && requestEvd != recvEvd) {
            requestEvd.feeders.add(created);
        }
        ia.children.add(created);
        ep.value = created;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_ep_free. A connected endpoint is disconnected abruptly first; its outstanding operations are flushed.
     *
     * @param ep the endpoint
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int epFree(Ep ep) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        abortEndpoint(ep);
        ep.freed = true;
        ep.pz.users--;
        for (Evd e : new Evd[] {ep.recvEvd, ep.requestEvd, ep.connectEvd}) {
            if (e != null) {
                e.users--;
                e.feeders.remove(ep);
            }
        }
        return DatReturn.SUCCESS;
    }

    private void abortEndpoint(Ep ep) {
        if (ep.state == Dat.EP_STATE_CONNECTED || ep.state == Dat.EP_STATE_DISCONNECT_PENDING
                || ep.state == Dat.EP_STATE_COMPLETION_PENDING) {
            sendDisconnect(ep);
        }
        ep.state = Dat.EP_STATE_DISCONNECTED;
        ep.ia.host.hca.flush(ep.qp);
    }

    /**
     * dat_ep_get_status.
     *
     * @param ep the endpoint
     * @param state receives the DAT_EP_STATE
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int epGetStatus(Ep ep, Out<Integer> state) {
        return epGetStatus(ep, state, new Out<>(), new Out<>());
    }

    /**
     * dat_ep_get_status with its idle flags (DAT 2.0 signature).
     *
     * @param ep the endpoint
     * @param state receives the DAT_EP_STATE
     * @param recvIdle receives true when no posted receive is in progress (none posted and not yet completed)
     * @param requestIdle receives true when no request operation or bind is outstanding
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int epGetStatus(Ep ep, Out<Integer> state, Out<Boolean> recvIdle, Out<Boolean> requestIdle) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        state.value = ep.state;
        recvIdle.value = ep.receivesPosted == 0;
        requestIdle.value = ep.qp.outstandingRequests() == 0;
        return DatReturn.SUCCESS;
    }

    // ------------------------------------------------------------------ connection management

    /**
     * dat_ep_connect: starts an active connection to a service point on another host. The outcome arrives on the
     * endpoint's connect EVD: ESTABLISHED, PEER_REJECTED, NON_PEER_REJECTED or TIMED_OUT.
     *
     * @param ep the endpoint, which must be UNCONNECTED
     * @param remoteHost the remote IA address (a host name)
     * @param connQual the remote connection qualifier
     * @param timeoutUs the timeout in microseconds, or {@link Dat#TIMEOUT_INFINITE}
     * @param privateData up to 56 bytes for the peer
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, DAT_INVALID_STATE (with the state's subtype),
     *     DAT_INVALID_ADDRESS/UNREACHABLE for an unknown host, or DAT_INVALID_PARAMETER
     */
    public int epConnect(Ep ep, String remoteHost, long connQual, long timeoutUs, byte[] privateData) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        if (ep.state != Dat.EP_STATE_UNCONNECTED) {
            return err(DatReturn.INVALID_STATE, ep.stateSubtype());
        }
        if (ep.connectEvd == null) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_EVD_CONNECT);
        }
        DatHost target = host(remoteHost);
        if (target == null) {
            return err(DatReturn.INVALID_ADDRESS, DatReturn.SUB_INVALID_ADDRESS_UNREACHABLE);
        }
        if (timeoutUs < 0 || timeoutUs > Dat.TIMEOUT_INFINITE) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG4);
        }
        if (privateData.length > MAX_PRIVATE_DATA) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG5);
        }
        ep.state = Dat.EP_STATE_ACTIVE_CONNECTION_PENDING;
        ep.remoteHost = target.id;
        ep.remoteConnQual = connQual;
        ep.disconnectSent = false;
        ep.ia.host.hca.sendCm(target.id, new CmMessage("REQ", ep.ia.host.id, ep, null, connQual, privateData,
                false));
        if (timeoutUs != Dat.TIMEOUT_INFINITE) {
            ep.connectTimer = sim.schedule(timeoutUs * 1_000_000L, () -> {
                if (ep.state == Dat.EP_STATE_ACTIVE_CONNECTION_PENDING) {
                    ep.state = Dat.EP_STATE_DISCONNECTED;
                    ep.ia.host.hca.flush(ep.qp);
                    postConnectionEvent(ep, Dat.CONNECTION_EVENT_TIMED_OUT);
                }
            });
        }
        return DatReturn.SUCCESS;
    }

    /**
     * dat_psp_create: listens on a connection qualifier; requests arrive as DAT_CONNECTION_REQUEST_EVENT on
     * {@code evd}.
     *
     * @param ia the IA
     * @param connQual the connection qualifier
     * @param evd an EVD accepting the CR stream
     * @param flags DAT_PSP_CONSUMER_FLAG (0); DAT_PSP_PROVIDER_FLAG is not supported by this provider
     * @param psp receives the service point
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE (IA or EVD_CR), DAT_CONN_QUAL_IN_USE, or DAT_INVALID_PARAMETER
     */
    public int pspCreate(Ia ia, long connQual, Evd evd, int flags, Out<Psp> psp) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        if (bad(evd, Evd.class) || evd.ia != ia || (evd.flags & Dat.EVD_CR_FLAG) == 0) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EVD_CR);
        }
        if (flags == 1) {
            return err(DatReturn.MODEL_NOT_SUPPORTED, 0); // DAT_PSP_PROVIDER_FLAG: no provider-created endpoints
        }
        if (flags != 0) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG4);
        }
        if (ia.host.psps.containsKey(connQual)) {
            return err(DatReturn.CONN_QUAL_IN_USE, 0);
        }
        Psp created = new Psp(ia.host.nextName("psp"), ia, connQual, evd, flags);
        ia.host.psps.put(connQual, created);
        evd.users++;
        ia.children.add(created);
        psp.value = created;
        return DatReturn.SUCCESS;
    }

    /** The first connection qualifier dat_psp_create_any hands out (above the well-known ones). */
    public static final long FIRST_ANY_CONN_QUAL = 0x10000;

    /**
     * dat_psp_create_any: like dat_psp_create on a connection qualifier the provider picks, the lowest unused one
     * from {@link #FIRST_ANY_CONN_QUAL}.
     *
     * @param ia the IA
     * @param evd an EVD accepting the CR stream
     * @param flags DAT_PSP_CONSUMER_FLAG (0)
     * @param psp receives the service point; its connection qualifier is {@link Psp#connQual()}
     * @return as dat_psp_create, or DAT_CONN_QUAL_UNAVAILABLE when none is left
     */
    public int pspCreateAny(Ia ia, Evd evd, int flags, Out<Psp> psp) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        long q = FIRST_ANY_CONN_QUAL;
        while (ia.host.psps.containsKey(q)) {
            q++;
            if (q > 0xFFFFFFFFL) {
                return err(DatReturn.CONN_QUAL_UNAVAILABLE, 0);
            }
        }
        return pspCreate(ia, q, evd, flags, psp);
    }

    /**
     * dat_ep_reset: from DISCONNECTED back to UNCONNECTED, ready for another connection; a no-op in UNCONNECTED
     * (pre-posted receives stay). Completions not yet dequeued may be lost, as the man page allows.
     *
     * @param ep the endpoint
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_STATE in any other state
     */
    public int epReset(Ep ep) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        if (ep.state == Dat.EP_STATE_UNCONNECTED) {
            return DatReturn.SUCCESS;
        }
        if (ep.state != Dat.EP_STATE_DISCONNECTED) {
            return err(DatReturn.INVALID_STATE, ep.stateSubtype());
        }
        ep.ia.host.hca.reset(ep.qp);
        ep.state = Dat.EP_STATE_UNCONNECTED;
        ep.peer = null;
        ep.remoteHost = -1;
        ep.disconnectSent = false;
        ep.requestsInFlight = 0;
        ep.suppressedUnreaped = 0;
        ep.receivesPosted = 0;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_psp_free: stops listening.
     *
     * @param psp the service point
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int pspFree(Psp psp) {
        if (bad(psp, Psp.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_PSP);
        }
        psp.freed = true;
        psp.ia.host.psps.remove(psp.connQual);
        psp.evd.users--;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_cr_accept: accepts a connection request on a local endpoint. The endpoint becomes CONNECTED, with
     * DAT_CONNECTION_EVENT_ESTABLISHED, when the requester's RTU arrives.
     *
     * @param cr the connection request
     * @param ep an UNCONNECTED endpoint
     * @param privateData up to 56 bytes for the requester
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE (CR or EP), DAT_INVALID_STATE, or DAT_INVALID_PARAMETER
     */
    public int crAccept(Cr cr, Ep ep, byte[] privateData) {
        if (bad(cr, Cr.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CR);
        }
        if (bad(ep, Ep.class) || ep.ia.host != cr.ia.host) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        if (ep.state != Dat.EP_STATE_UNCONNECTED) {
            return err(DatReturn.INVALID_STATE, ep.stateSubtype());
        }
        if (privateData.length > MAX_PRIVATE_DATA) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG3);
        }
        cr.freed = true;
        ep.state = Dat.EP_STATE_COMPLETION_PENDING;
        ep.peer = cr.remoteEp;
        ep.remoteHost = cr.remoteHost;
        ep.disconnectSent = false;
        ep.qp.connect(cr.remoteEp.qp);
        ep.ia.host.hca.sendCm(cr.remoteHost, new CmMessage("REP", ep.ia.host.id, ep, cr.remoteEp, 0, privateData,
                false));
        return DatReturn.SUCCESS;
    }

    /**
     * dat_cr_handoff: hands a connection request to the service point listening on another connection qualifier of
     * the same IA, which receives it as a new DAT_CONNECTION_REQUEST_EVENT; the original request is destroyed.
     *
     * @param cr the connection request
     * @param handoff the other connection qualifier
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_PARAMETER (ARG2) when no PSP of the IA listens there
     */
    public int crHandoff(Cr cr, long handoff) {
        if (bad(cr, Cr.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CR);
        }
        Psp target = cr.ia.host.psps.get(handoff);
        if (target == null || target.freed || target.ia != cr.ia || target == cr.psp) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        cr.freed = true;
        DatHost host = cr.ia.host;
        Cr moved = new Cr(host.nextName("cr"), cr.ia, target, cr.remoteEp, cr.remoteHost, cr.privateData);
        cr.ia.children.add(moved);
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), "event", host.name).attr("event", "DAT_CONNECTION_REQUEST_EVENT")
                    .attr("cr", moved.name()).attr("conn_qual", handoff).attr("handed_off_from", cr.name()));
        }
        post(target.evd, new DatEvent(Dat.CONNECTION_REQUEST_EVENT, target.evd, null, 0, -1, 0, -1, moved, -1,
                sim.now(), false));
        return DatReturn.SUCCESS;
    }

    /**
     * dat_cr_reject: refuses a connection request; the requester gets DAT_CONNECTION_EVENT_PEER_REJECTED.
     *
     * @param cr the connection request
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int crReject(Cr cr) {
        if (bad(cr, Cr.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CR);
        }
        cr.freed = true;
        cr.ia.host.hca.sendCm(cr.remoteHost, new CmMessage("REJ", cr.ia.host.id, null, cr.remoteEp, 0,
                new byte[0], true));
        return DatReturn.SUCCESS;
    }

    /**
     * dat_ep_disconnect (rules 43, 45, 46). Graceful: the endpoint enters DISCONNECT_PENDING and lets outstanding
     * requests complete before it disconnects. Abrupt: outstanding operations are flushed now. Both end with
     * DAT_CONNECTION_EVENT_DISCONNECTED on each side's connect EVD.
     *
     * @param ep the endpoint
     * @param flags DAT_CLOSE_ABRUPT_FLAG or DAT_CLOSE_GRACEFUL_FLAG
     * @return DAT_SUCCESS (also a no-op in DISCONNECTED), DAT_INVALID_HANDLE, DAT_INVALID_PARAMETER, or
     *     DAT_INVALID_STATE in UNCONNECTED
     */
    public int epDisconnect(Ep ep, int flags) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        if (flags != Dat.CLOSE_ABRUPT_FLAG && flags != Dat.CLOSE_GRACEFUL_FLAG) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        switch (ep.state) {
            case Dat.EP_STATE_DISCONNECTED:
                return DatReturn.SUCCESS;
            case Dat.EP_STATE_ACTIVE_CONNECTION_PENDING:
            case Dat.EP_STATE_COMPLETION_PENDING:
                sim.cancel(ep.connectTimer);
                sendDisconnect(ep);
                ep.state = Dat.EP_STATE_DISCONNECTED;
                ep.ia.host.hca.flush(ep.qp);
                postConnectionEvent(ep, Dat.CONNECTION_EVENT_DISCONNECTED);
                return DatReturn.SUCCESS;
            case Dat.EP_STATE_CONNECTED:
            case Dat.EP_STATE_DISCONNECT_PENDING:
                if (flags == Dat.CLOSE_GRACEFUL_FLAG) {
                    if (ep.state == Dat.EP_STATE_CONNECTED) {
                        ep.state = Dat.EP_STATE_DISCONNECT_PENDING;
                        maybeFinishGracefulDisconnect(ep);
                    }
                } else {
                    // Rules 43, 45: abrupt disconnect flushes and forces DISCONNECTED at once, also during a
                    // graceful one; the DREP that follows changes nothing.
                    sendDisconnect(ep);
                    ep.state = Dat.EP_STATE_DISCONNECTED;
                    ep.ia.host.hca.flush(ep.qp);
                    postConnectionEvent(ep, Dat.CONNECTION_EVENT_DISCONNECTED);
                }
                return DatReturn.SUCCESS;
            default:
                return err(DatReturn.INVALID_STATE, ep.stateSubtype());
        }
    }

    private void maybeFinishGracefulDisconnect(Ep ep) {
        if (ep.state == Dat.EP_STATE_DISCONNECT_PENDING && !ep.disconnectSent && ep.qp.outstandingRequests() == 0) {
            sendDisconnect(ep);
            ep.ia.host.hca.flush(ep.qp);
        }
    }

    private void sendDisconnect(Ep ep) {
        if (!ep.disconnectSent && ep.remoteHost >= 0) {
            ep.disconnectSent = true;
            ep.ia.host.hca.sendCm(ep.remoteHost, new CmMessage("DREQ", ep.ia.host.id, ep, ep.peer, 0, new byte[0],
                    false));
        }
    }

    private void onCm(DatHost host, CmMessage m) {
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), "cm", host.name).ep(m.to() != null ? m.to().name() : null)
                    .attr("message", m.type()).attr("from", hosts.get(m.srcHost()).name));
        }
        switch (m.type()) {
            case "REQ": {
                Psp psp = host.psps.get(m.connQual());
                if (psp == null || psp.freed) {
                    host.hca.sendCm(m.srcHost(), new CmMessage("REJ", host.id, null, m.from(), 0, new byte[0],
                            false));
                    return;
                }
                Cr cr = new Cr(host.nextName("cr"), psp.ia, psp, m.from(), m.srcHost(), m.privateData());
                psp.ia.children.add(cr);
                if (trace.isEnabled()) {
                    trace.fire(TraceEvent.of(sim.now(), "event", host.name)
                            .attr("event", "DAT_CONNECTION_REQUEST_EVENT").attr("cr", cr.name())
                            .attr("conn_qual", m.connQual()));
                }
                post(psp.evd, new DatEvent(Dat.CONNECTION_REQUEST_EVENT, psp.evd, null, 0, -1, 0, -1, cr, -1,
                        sim.now(), false));
                return;
            }
            case "REP": {
                Ep ep = m.to();
                if (ep.freed || ep.state != Dat.EP_STATE_ACTIVE_CONNECTION_PENDING) {
                    host.hca.sendCm(m.srcHost(), new CmMessage("DREQ", host.id, ep, m.from(), 0, new byte[0],
                            false));
                    return;
                }
                sim.cancel(ep.connectTimer);
                ep.peer = m.from();
                ep.qp.connect(m.from().qp);
                ep.state = Dat.EP_STATE_CONNECTED;
                host.hca.sendCm(m.srcHost(), new CmMessage("RTU", host.id, ep, m.from(), 0, new byte[0], false));
                postConnectionEvent(ep, Dat.CONNECTION_EVENT_ESTABLISHED);
                return;
            }
            case "RTU": {
                Ep ep = m.to();
                if (!ep.freed && ep.state == Dat.EP_STATE_COMPLETION_PENDING) {
                    ep.state = Dat.EP_STATE_CONNECTED;
                    postConnectionEvent(ep, Dat.CONNECTION_EVENT_ESTABLISHED);
                }
                return;
            }
            case "REJ": {
                Ep ep = m.to();
                if (!ep.freed && ep.state == Dat.EP_STATE_ACTIVE_CONNECTION_PENDING) {
                    sim.cancel(ep.connectTimer);
                    ep.state = Dat.EP_STATE_DISCONNECTED;
                    host.hca.flush(ep.qp);
                    postConnectionEvent(ep, m.consumerReject() ? Dat.CONNECTION_EVENT_PEER_REJECTED
                            : Dat.CONNECTION_EVENT_NON_PEER_REJECTED);
                }
                return;
            }
            case "DREQ": {
                Ep ep = m.to();
                if (ep == null) {
                    return;
                }
                host.hca.sendCm(m.srcHost(), new CmMessage("DREP", host.id, ep, m.from(), 0, new byte[0], false));
                if (!ep.freed && ep.state != Dat.EP_STATE_DISCONNECTED && ep.state != Dat.EP_STATE_UNCONNECTED) {
                    ep.disconnectSent = true;
                    ep.state = Dat.EP_STATE_DISCONNECTED;
                    host.hca.flush(ep.qp);
                    postConnectionEvent(ep, Dat.CONNECTION_EVENT_DISCONNECTED);
                }
                return;
            }
            case "DREP": {
                Ep ep = m.to();
                if (!ep.freed && ep.state == Dat.EP_STATE_DISCONNECT_PENDING) {
                    ep.state = Dat.EP_STATE_DISCONNECTED;
                    postConnectionEvent(ep, Dat.CONNECTION_EVENT_DISCONNECTED);
                }
                return;
            }
            default:
                throw new IllegalStateException("unknown CM message " + m.type());
        }
    }

    // ------------------------------------------------------------------ data transfer

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
     * The checks and the posting common to the request DTOs (rules 12, 42, 47, 48, 50).
     *
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE/EP; DAT_INVALID_STATE/EP_UNCONNECTED outside CONNECTED and
     *     DISCONNECTED (as dapl); DAT_INVALID_PARAMETER for bad flags, too many segments or a segment outside its
     *     LMR; DAT_PRIVILEGES_VIOLATION for an unknown lmr_context or a missing local privilege;
     *     DAT_PROTECTION_VIOLATION for an LMR of another PZ; DAT_LENGTH_ERROR for a message over the limit or RDMA
     *     lengths that differ; DAT_INSUFFICIENT_RESOURCES when max_request_dtos are outstanding
     */
    private int postRequest(Ep ep, int opcode, LmrTriplet[] iov, long cookie, RmrTriplet remote, int flags,
            Out<Long> opId) {
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
        int localPriv = opcode == WorkRequest.RDMA_READ ? Dat.MEM_PRIV_LOCAL_WRITE : Dat.MEM_PRIV_LOCAL_READ;
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
            return err(DatReturn.INSUFFICIENT_RESOURCES, DatReturn.SUB_RESOURCE_TEP);
        }
        WorkRequest wr = newWorkRequest(ep, opcode, iov, cookie, flags, remote);
        ep.requestsInFlight++;
        traceOp(ep, wr, TraceEvent.POST);
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
        int ret = checkIov(ep, iov, ep.attr.maxRecvIov(), Dat.MEM_PRIV_LOCAL_WRITE);
        if (ret != DatReturn.SUCCESS) {
            return ret;
        }
        if (ep.receivesPosted >= ep.attr.maxRecvDtos()) {
            return err(DatReturn.INSUFFICIENT_RESOURCES, DatReturn.SUB_RESOURCE_TEP);
        }
        WorkRequest wr = newWorkRequest(ep, WorkRequest.RECV, iov, cookie, flags, null);
        ep.receivesPosted++;
        traceOp(ep, wr, TraceEvent.POST);
        ep.ia.host.hca.postReceive(wr);
        opId.value = wr.opId;
        return DatReturn.SUCCESS;
    }

    private int checkIov(Ep ep, LmrTriplet[] iov, int maxSegments, int requiredPriv) {
        if (iov.length > maxSegments) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        DatHost h = ep.ia.host;
        for (LmrTriplet t : iov) {
            if (t.length() == 0) {
                continue;
            }
            Lmr lmr = h.byLmrContext.get(t.lmrContext());
            if (lmr == null || lmr.freed) {
                return err(DatReturn.PRIVILEGES_VIOLATION, 0);
            }
            if (lmr.pz != ep.pz) {
                return err(DatReturn.PROTECTION_VIOLATION, 0);
            }
            if ((lmr.privileges & requiredPriv) != requiredPriv) {
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
        return new WorkRequest(nextOpId++, opcode, ep.qp, cookie, flags, addr, len,
                remote != null ? remote.address() : 0, remote != null ? remote.rmrContext() : 0);
    }

    private void traceOp(Ep ep, WorkRequest wr, String kind) {
        if (trace.isEnabled()) {
            TraceEvent e = TraceEvent.of(sim.now(), kind, ep.ia.host.name).ep(ep.name()).op(wr.opId)
                    .cookie(wr.cookie).attr("opcode", wr.opName()).attr("bytes", wr.length);
            if (wr.flags != 0) {
                e.attr("flags", Dat.COMPLETION_FLAGS.flagNames(wr.flags));
            }
            trace.fire(e);
        }
    }

    /** Hears the HCA on behalf of one endpoint. */
    private final class EpListener implements QueuePair.Listener {

        private final Ep ep;

        EpListener(Ep ep) {
            this.ep = ep;
        }

        @Override
        public void requestCompleted(WorkRequest wr) {
            if (wr.opcode == WorkRequest.BIND && wr.status() == Dat.DTO_ERR_FLUSHED) {
                Rmr.Binding b = (Rmr.Binding) wr.bindTarget;
                if (b.lmr() != null) {
                    b.lmr().bindRefs--; // the flushed bind never executed: give back the LMR it held
                }
            }
            if (wr.status() == Dat.DTO_SUCCESS && (wr.flags & Dat.COMPLETION_SUPPRESS_FLAG) != 0) {
                ep.suppressedUnreaped++; // its slot stays taken until a later signalled completion is reaped
            } else {
                ep.requestsInFlight--;
            }
            deliver(ep.requestEvd, wr);
            maybeFinishGracefulDisconnect(ep);
        }

        @Override
        public void receiveCompleted(WorkRequest wr) {
            ep.receivesPosted--;
            deliver(ep.recvEvd, wr);
        }

        private void deliver(Evd evd, WorkRequest wr) {
            boolean suppressed = wr.status() == Dat.DTO_SUCCESS
                    && (wr.flags & Dat.COMPLETION_SUPPRESS_FLAG) != 0;
            if (trace.isEnabled()) {
                TraceEvent e = TraceEvent.of(sim.now(), TraceEvent.COMPLETE, ep.ia.host.name).ep(ep.name())
                        .op(wr.opId).cookie(wr.cookie).status(Dat.DTO_STATUS.name(wr.status()))
                        .attr("opcode", wr.opName()).attr("bytes", wr.transferred());
                if (suppressed) {
                    e.attr("suppressed", Boolean.TRUE);
                }
                trace.fire(e);
            }
            if (!suppressed && wr.opcode == WorkRequest.BIND && !bindAsDtoEvent) {
                post(evd, new DatEvent(Dat.RMR_BIND_COMPLETION_EVENT, evd, ep, wr.cookie, wr.status(), 0,
                        Dat.DTO_BIND_MW, null, ((Rmr.Binding) wr.bindTarget).rmr(), wr.opId, sim.now(),
                        (wr.flags & Dat.COMPLETION_UNSIGNALLED_FLAG) != 0));
            } else if (!suppressed) {
                post(evd, new DatEvent(Dat.DTO_COMPLETION_EVENT, evd, ep, wr.cookie, wr.status(),
                        wr.status() == Dat.DTO_SUCCESS ? wr.transferred() : 0, wr.opcode, null, wr.opId,
                        sim.now(), (wr.flags & Dat.COMPLETION_UNSIGNALLED_FLAG) != 0));
            }
        }

        @Override
        public void broken(int status) {
            if (ep.state == Dat.EP_STATE_DISCONNECTED || ep.freed) {
                return;
            }
            ep.state = Dat.EP_STATE_DISCONNECTED;
            if (trace.isEnabled()) {
                trace.fire(TraceEvent.of(sim.now(), TraceEvent.ERROR, ep.ia.host.name).ep(ep.name())
                        .status(Dat.DTO_STATUS.name(status)).attr("error", "connection broken"));
            }
            postConnectionEvent(ep, Dat.CONNECTION_EVENT_BROKEN);
        }

        @Override
        public int bindExecuted(WorkRequest wr) {
            Rmr.Binding b = (Rmr.Binding) wr.bindTarget;
            Rmr rmr = b.rmr();
            if (rmr.freed || (b.lmr() != null && b.lmr().freed)) {
                if (b.lmr() != null) {
                    b.lmr().bindRefs--;
                }
                return Dat.RMR_OPERATION_FAILED; // rule 26: the bind fails after dat_rmr_bind returned
            }
            unbindNow(rmr);
            if (b.lmr() != null) {
                rmr.lmr = b.lmr(); // takes over the reference the bind held
                rmr.address = b.address();
                rmr.length = b.length();
                rmr.privileges = b.privileges();
                rmr.activeContext = b.context();
                ep.ia.host.rmrByContext.put(b.context(), rmr);
            }
            return Dat.DTO_SUCCESS;
        }

        @Override
        public void requestArrived() {
            if (ep.state == Dat.EP_STATE_COMPLETION_PENDING && !ep.freed) {
                ep.state = Dat.EP_STATE_CONNECTED; // the RTU is overtaken by data: communication established
                postConnectionEvent(ep, Dat.CONNECTION_EVENT_ESTABLISHED);
            }
        }

        @Override
        public int checkRemoteAccess(int rkey, long address, long length, boolean write) {
            int priv = write ? Dat.MEM_PRIV_REMOTE_WRITE : Dat.MEM_PRIV_REMOTE_READ;
            Rmr rmr = ep.ia.host.rmrByContext.get(rkey);
            if (rmr != null) {
                // A window: only its current, executed bind counts (rules 24, 25).
                boolean inRange = address >= rmr.address && length >= 0 && address - rmr.address <= rmr.length - length;
                if (rmr.freed || rmr.activeContext != rkey || rmr.pz != ep.pz || (rmr.privileges & priv) == 0
                        || !inRange) {
                    return Dat.DTO_ERR_REMOTE_ACCESS;
                }
                return Dat.DTO_SUCCESS;
            }
            Lmr lmr = ep.ia.host.byRmrContext.get(rkey);
            if (lmr == null || lmr.freed || lmr.pz != ep.pz || (lmr.privileges & priv) == 0
                    || !lmr.contains(address, length)) {
                return Dat.DTO_ERR_REMOTE_ACCESS;
            }
            return Dat.DTO_SUCCESS;
        }
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
}

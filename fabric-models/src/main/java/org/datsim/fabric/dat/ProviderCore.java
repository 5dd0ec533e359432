package org.datsim.fabric.dat;

import java.util.List;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.hca.WcStatus;

/**
 * The state the parts of the DAT provider share: the simulator, the trace, the hosts, the provider limits read
 * from the parameters, the operation ids, the parts themselves, and the queuing of events on EVDs (with overflow,
 * rule 8) that every part uses.
 */
final class ProviderCore {

    static final int MAX_PRIVATE_DATA = 56;

    final Simulator sim;
    /** Explored runs: what to wake when any DTO completion is reported (the waits held by {@link ReapHold}). */
    final List<Runnable> reportWatchers = new java.util.ArrayList<>();
    final TraceSource<TraceEvent> trace;
    final List<DatHost> hosts;
    final long cmProcessing;
    final int maxEvdQlen;
    final int maxDtoPerEp;
    final long maxMessageSize;
    final int maxIov;
    final boolean bindAsDtoEvent;
    final int maxReadsIn;
    final int maxReadsOut;
    final boolean bindFlushWhenDisconnected;
    /** provider.local_read_privilege: whether a local_iov the HCA reads needs the local read privilege. */
    final boolean checkLocalRead;
    long nextOpId = 1;

    final IaCalls ia;
    final EvdCalls evd;
    final MemoryCalls memory;
    final EpCalls ep;
    final ConnectionCalls cm;
    final DtoCalls dto;
    final SrqCalls srq;
    final CnoCalls cno;
    final RspCalls rsp;
    final EpExtraCalls epx;
    final RegistryCalls registry;

    ProviderCore(Simulator sim, TraceSource<TraceEvent> trace, List<DatHost> hosts, Params params) {
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
        this.checkLocalRead = "check".equals(params.choice(FabricParams.PROVIDER_LOCAL_READ));
        this.bindFlushWhenDisconnected = "flush".equals(params.choice(FabricParams.PROVIDER_BIND_DISCONNECTED));
        this.ia = new IaCalls(this);
        this.evd = new EvdCalls(this);
        this.memory = new MemoryCalls(this);
        this.ep = new EpCalls(this);
        this.cm = new ConnectionCalls(this, params);
        this.dto = new DtoCalls(this);
        this.cno = new CnoCalls(this);
        this.rsp = new RspCalls(this);
        this.epx = new EpExtraCalls(this);
        this.registry = new RegistryCalls(this);
        this.srq = new SrqCalls(this,
                "provider_internal_error".equals(params.choice(FabricParams.PROVIDER_SRQ_LW_EVENT)));
        for (DatHost h : this.hosts) {
            h.hca.setCmListener(m -> sim.schedule(cmProcessing, () -> cm.onCm(h, (CmMessage) m)));
        }
    }

    /**
     * Finds a host by name.
     *
     * @param name the host name
     * @return the host, or null
     */
    DatHost host(String name) {
        for (DatHost h : hosts) {
            if (h.name.equals(name)) {
                return h;
            }
        }
        return null;
    }

    void post(Evd evd, DatEvent e) {
        if (evd == null || evd.freed) {
            released(e);
            return;
        }
        if (evd.queue.size() >= evd.qlen) {
            evd.overflows++;
            released(e);
            if (trace.isEnabled()) {
                trace.fire(TraceEvent.of(sim.now(), TraceEvent.ERROR, evd.ia.host.name).attr(TraceKey.EVD, evd.name())
                        .attr(TraceKey.ERROR, "DAT_ASYNC_ERROR_EVD_OVERFLOW")
                        .attr(TraceKey.LOST_EVENT, e.numberName()));
            }
            Evd async = evd.ia.asyncEvd;
            if (async != evd && async.queue.size() < async.qlen) {
                async.queue.addLast(new DatEvent(Dat.ASYNC_ERROR_EVD_OVERFLOW, async, null, 0, -1, 0, -1, null, -1,
                        sim.now(), false));
                cno.notify(async);
                wake(async);
            }
            // Rule 8: on InfiniBand a completion-queue overflow is fatal for every queue pair feeding it.
            for (Ep ep : List.copyOf(evd.feeders)) {
                if (ep.state == Dat.EP_STATE_CONNECTED || ep.state == Dat.EP_STATE_DISCONNECT_PENDING) {
                    ep.ia.host.hca.fail(ep.qp, null, WcStatus.LOC_QP_OP_ERR);
                }
            }
            return;
        }
        if (sim.exploring() && e.ep != null && e.number == Dat.DTO_COMPLETION_EVENT) {
            DatChoices.enqueue(sim.choices(), evd, e, evd.ia.host.name);
        } else {
            evd.queue.addLast(e);
        }
        evd.queuedTotal++;
        if (!e.unsignalled) {
            cno.notify(evd); // before the waiter is woken: a consumer waiting on the EVD itself preempts the CNO
            wake(evd);
        }
    }

    /** An event leaves the provider (reaped, or lost): an SRQ receive it completes stops being outstanding. */
    void released(DatEvent e) {
        if (e.srq != null && e.number == Dat.DTO_COMPLETION_EVENT) {
            srq.reaped(e.srq);
        }
    }

    /** A DTO completion was reported (explored runs): wakes the waits held by {@link ReapHold}. */
    void reported() {
        if (!reportWatchers.isEmpty()) {
            for (Runnable r : reportWatchers.toArray(new Runnable[0])) {
                r.run();
            }
        }
    }

    void wake(Evd evd) {
        if (evd.waiter != null) {
            evd.waiter.run();
        }
    }

    void postConnectionEvent(Ep ep, int number) {
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), TraceKind.EVENT, ep.ia.host.name).ep(ep.name())
                    .attr(TraceKey.EVENT, Dat.EVENTS.name(number)).attr(TraceKey.STATE, ep.stateName()));
        }
        post(ep.connectEvd, new DatEvent(number, ep.connectEvd, ep, 0, -1, 0, -1, null, -1, sim.now(), false));
        if (ep.srq != null && (number == Dat.CONNECTION_EVENT_DISCONNECTED || number == Dat.CONNECTION_EVENT_BROKEN)) {
            // The InfiniBand "Last WQE Reached" affiliated event of a queue pair of an SRQ that left the connected
            // state: it will take no more receives from the SRQ. dapl reports it as DAT_ASYNC_ERROR_EP_BROKEN on the
            // IA's async EVD with dat_handle the endpoint (dtestsrq waits for it after each disconnect).
            Evd async = ep.ia.asyncEvd;
            if (trace.isEnabled()) {
                trace.fire(TraceEvent.of(sim.now(), TraceKind.EVENT, ep.ia.host.name).ep(ep.name())
                        .attr(TraceKey.EVENT, Dat.EVENTS.name(Dat.ASYNC_ERROR_EP_BROKEN))
                        .attr(TraceKey.REASON, "last WQE reached: the endpoint takes no more receives from its SRQ"));
            }
            post(async, new DatEvent(Dat.ASYNC_ERROR_EP_BROKEN, async, ep, 0, -1, 0, -1, null, -1, sim.now(), false));
        }
    }
}

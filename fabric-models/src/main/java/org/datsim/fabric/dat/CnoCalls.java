package org.datsim.fabric.dat;

import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;

/**
 * The CNO calls: dat_cno_create, free, modify_agent and the steps of dat_cno_wait, dat_evd_modify_cno, and the
 * notification an EVD gives its CNO (governed by dat_evd_enable and dat_evd_disable).
 */
final class CnoCalls extends ProviderPart {

    CnoCalls(ProviderCore core) {
        super(core);
    }

    /**
     * dat_cno_create.
     *
     * @param ia the IA
     * @param agent the OS wait proxy agent's name, or null for DAT_OS_WAIT_PROXY_AGENT_NULL
     * @param cno receives the CNO
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE/IA
     */
    public int cnoCreate(Ia ia, String agent, Out<Cno> cno) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        Cno created = new Cno(ia.host.nextName("cno"), ia, agent);
        ia.children.add(created);
        cno.value = created;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_cno_free.
     *
     * @param cno the CNO
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE/CNO, or DAT_INVALID_STATE/CNO_IN_USE while an EVD references it or a
     *     consumer waits on it
     */
    public int cnoFree(Cno cno) {
        if (bad(cno, Cno.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CNO);
        }
        if (cno.users > 0 || !cno.waiters.isEmpty()) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_CNO_IN_USE);
        }
        cno.freed = true;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_cno_modify_agent: replaces the OS wait proxy agent.
     *
     * @param cno the CNO
     * @param agent the new agent's name, or null for DAT_OS_WAIT_PROXY_AGENT_NULL
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE/CNO
     */
    public int cnoModifyAgent(Cno cno, String agent) {
        if (bad(cno, Cno.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CNO);
        }
        cno.agent = agent;
        return DatReturn.SUCCESS;
    }

    /**
     * The argument checks of dat_cno_wait, made when the call starts.
     *
     * @param cno the CNO
     * @param timeoutUs the timeout in microseconds ({@link Dat#TIMEOUT_INFINITE} never expires)
     * @return DAT_SUCCESS if the wait may proceed, DAT_INVALID_HANDLE/CNO or DAT_INVALID_PARAMETER (ARG2)
     */
    public int cnoWaitCheck(Cno cno, long timeoutUs) {
        if (bad(cno, Cno.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CNO);
        }
        if (timeoutUs < 0 || timeoutUs > Dat.TIMEOUT_INFINITE) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        return DatReturn.SUCCESS;
    }

    /**
     * Takes the CNO's pending notification, the end of a satisfied dat_cno_wait.
     *
     * @param cno the CNO
     * @return the notifying EVD (a hint), or null if none is pending
     */
    public Evd cnoTake(Cno cno) {
        Evd e = cno.pending;
        cno.pending = null;
        return e;
    }

    /**
     * Registers or removes a consumer blocked in dat_cno_wait.
     *
     * @param cno the CNO
     * @param wake what to run when the CNO is notified (or its IA closed, or its last EVD freed)
     * @param add true to register, false to remove
     */
    public void cnoWaiter(Cno cno, Runnable wake, boolean add) {
        if (add) {
            cno.waiters.add(wake);
        } else {
            cno.waiters.remove(wake);
        }
    }

    /**
     * dat_evd_modify_cno: associates the EVD with another CNO, or with none.
     *
     * @param evd the EVD
     * @param cno the new CNO, or null for DAT_HANDLE_NULL
     * @return DAT_SUCCESS, or DAT_INVALID_HANDLE for a bad EVD or a CNO that is freed or of another IA (CNO
     *     subtype)
     */
    public int evdModifyCno(Evd evd, Cno cno) {
        if (bad(evd, Evd.class)) {
            return err(DatReturn.INVALID_HANDLE, 0);
        }
        if (cno != null && (cno.freed || cno.ia != evd.ia)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CNO);
        }
        detach(evd, false);
        attach(evd, cno);
        return DatReturn.SUCCESS;
    }

    /** Associates an EVD with a CNO (at dat_evd_create or dat_evd_modify_cno). */
    void attach(Evd evd, Cno cno) {
        evd.cno = cno;
        if (cno != null) {
            cno.users++;
        }
    }

    /**
     * Ends an EVD's association. When the EVD was freed and was the CNO's last, the CNO's waiters return with no EVD
     * (DAT_SUCCESS, a null handle). When it was only taken away (dat_evd_modify_cno) the waiters are woken to look
     * again: a finite wait goes on until its timeout (DAT_QUEUE_EMPTY), an infinite one, which nothing could end any
     * more, returns DAT_QUEUE_EMPTY at once.
     *
     * @param evd the EVD
     * @param freed true from dat_evd_free, false from dat_evd_modify_cno
     */
    void detach(Evd evd, boolean freed) {
        Cno cno = evd.cno;
        if (cno == null) {
            return;
        }
        evd.cno = null;
        cno.users--;
        if (cno.users == 0) {
            if (freed) {
                cno.releases++;
            }
            wakeAll(cno);
        }
    }

    /**
     * An EVD queued a notification event: an enabled EVD with no consumer waiting on it directly notifies its CNO,
     * which wakes its waiters, or else keeps the notification pending and calls its proxy agent.
     */
    void notify(Evd evd) {
        Cno cno = evd.cno;
        if (cno == null || cno.freed || !evd.enabled || evd.waiter != null) {
            return;
        }
        cno.pending = evd;
        if (trace.isEnabled()) {
            TraceEvent e = TraceEvent.of(sim.now(), TraceKind.CNO_NOTIFY, evd.ia.host.name)
                    .attr(TraceKey.CNO, cno.name())
                    .attr(TraceKey.EVD, evd.name()).attr(TraceKey.WAITERS, (long) cno.waiters.size());
            if (cno.waiters.isEmpty() && cno.agent != null) {
                e.attr(TraceKey.PROXY_AGENT, cno.agent);
            }
            trace.fire(e);
        }
        if (cno.waiters.isEmpty()) {
            if (cno.agent != null) {
                cno.agentCalls++;
            }
            return;
        }
        wakeAll(cno);
    }

    private void wakeAll(Cno cno) {
        for (Runnable r : cno.waiters.toArray(new Runnable[0])) {
            r.run();
        }
    }
}

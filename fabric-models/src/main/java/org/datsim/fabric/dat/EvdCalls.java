package org.datsim.fabric.dat;

/**
 * The EVD calls: create, free, the checks of dat_evd_wait, dequeue, (un)waitable, enable/disable, resize and
 * post_se.
 */
final class EvdCalls extends ProviderPart {

    EvdCalls(ProviderCore core) {
        super(core);
    }

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
        return evdCreate(ia, qlen, null, flags, evd);
    }

    /**
     * dat_evd_create with a CNO.
     *
     * @param ia the IA
     * @param qlen evd_min_qlen
     * @param cno the CNO the EVD notifies, or null for DAT_HANDLE_NULL
     * @param flags the DAT_EVD_FLAGS of the streams it accepts
     * @param evd receives the EVD
     * @return as without a CNO, and DAT_INVALID_HANDLE/CNO for a CNO that is freed or of another IA
     */
    public int evdCreate(Ia ia, int qlen, Cno cno, int flags, Out<Evd> evd) {
        if (!bad(ia, Ia.class) && cno != null && (cno.freed || cno.ia != ia)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CNO);
        }
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        if (qlen < 1 || qlen > core.maxEvdQlen) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        if (flags == 0 || (flags & ~0x1F1) != 0 || (flags & Dat.EVD_ASYNC_FLAG) != 0) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG4);
        }
        Evd created = new Evd(ia.host.nextName("evd"), ia, qlen, flags);
        core.cno.attach(created, cno);
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
        core.cno.detach(evd, true);
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
            // Rules 6 and 15: a stream whose notifications the consumer controls (UNSIGNALLED) or the remote sender
            // does (SOLICITED_WAIT receives) allows only threshold 1.
            for (Ep ep : evd.feeders) {
                int flags = (ep.requestEvd == evd ? ep.attr.requestCompletionFlags() : 0)
                        | (ep.recvEvd == evd ? ep.attr.recvCompletionFlags() : 0);
                if ((flags & (Dat.COMPLETION_UNSIGNALLED_FLAG | Dat.COMPLETION_SOLICITED_WAIT_FLAG)) != 0) {
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
        if (e.requestSeq > 0 && e.requestSeq > e.ep.requestsReaped) {
            // Rule 11: reaping a request completion frees its slot and those of the requests of its endpoint that
            // completed before it (suppressed ones, whose completions are never queued), as dapl's cookie ring
            // does (dapls_cb_put moves the ring's tail up to the reaped cookie).
            e.ep.requestsInFlight -= (int) (e.requestSeq - e.ep.requestsReaped);
            e.ep.requestsReaped = e.requestSeq;
        }
        core.released(e);
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
        core.wake(evd);
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
     * dat_evd_enable or dat_evd_disable: whether event arrivals notify the EVD's CNO. Events are queued either way;
     * a disabled EVD (like one a consumer waits on directly) does not notify its CNO. Either call on an EVD already
     * in that state is a no-op.
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
        if (qlen < 1 || qlen > core.maxEvdQlen) {
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
        core.post(evd, new DatEvent(Dat.SOFTWARE_EVENT, evd, null, pointer, -1, 0, -1, null, -1, sim.now(), false));
        return DatReturn.SUCCESS;
    }
}

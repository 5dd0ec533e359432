package org.datsim.fabric.dat;

/** The IA and PZ calls, the calls on any handle (consumer context, handle type) and the dat_*_query calls. */
final class IaCalls extends ProviderPart {

    IaCalls(ProviderCore core) {
        super(core);
    }

    /**
     * dat_ia_open: opens the interface adapter named {@code iaName} on the calling host and creates its async EVD.
     *
     * @param host the calling host
     * @param iaName the IA name: registered in the host's dynamic registry, or in its static one ({@link
     *     DatHost#DEFAULT_IA_NAME} for its one port), which loads the provider first
     * @param asyncEvdQlen the async EVD's minimum queue length
     * @param ia receives the IA handle
     * @return DAT_SUCCESS; DAT_PROVIDER_NOT_FOUND/DAT_NAME_NOT_REGISTERED for an unknown name;
     *     DAT_INVALID_PARAMETER for a bad queue length
     */
    public int iaOpen(DatHost host, String iaName, int asyncEvdQlen, Out<Ia> ia) {
        if (iaName == null || !core.registry.lookup(host, iaName)) {
            return err(DatReturn.PROVIDER_NOT_FOUND, DatReturn.SUB_NAME_NOT_REGISTERED);
        }
        if (asyncEvdQlen < 1 || asyncEvdQlen > core.maxEvdQlen) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        Ia opened = new Ia(host, iaName, host.nextName("ia"));
        opened.asyncEvd = new Evd(host.nextName("evd"), opened, asyncEvdQlen, Dat.EVD_ASYNC_FLAG);
        opened.children.add(opened.asyncEvd);
        host.ias.add(opened);
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
                core.ep.abortEndpoint((Ep) h);
            }
            if (h instanceof Lmr) {
                ia.host.byLmrContext.remove(((Lmr) h).lmrContext);
                ia.host.byRmrContext.remove(((Lmr) h).rmrContext);
            }
            if (h instanceof Rsp && !h.freed && ia.host.rsps.get(((Rsp) h).connQual) == h) {
                ia.host.rsps.remove(((Rsp) h).connQual);
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
            if (h instanceof Cno) {
                for (Runnable r : ((Cno) h).waiters.toArray(new Runnable[0])) {
                    r.run(); // a consumer blocked in dat_cno_wait returns with no EVD
                }
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
        a.put("max_dto_per_ep", (long) core.maxDtoPerEp);
        a.put("max_rdma_read_per_ep_in", (long) core.maxReadsIn);
        a.put("max_rdma_read_per_ep_out", (long) core.maxReadsOut);
        a.put("max_evd_qlen", (long) core.maxEvdQlen);
        a.put("max_iov_segments_per_dto", (long) core.maxIov);
        a.put("max_message_size", core.maxMessageSize);
        a.put("max_rdma_size", core.maxMessageSize);
        a.put("max_recv_per_srq", (long) core.maxDtoPerEp);
        a.put("srq_supported", 1L);
        a.put("srq_watermarks_supported", core.srq.lowWatermarkSupported() ? 1L : 0L);
        a.put("srq_ep_pz_difference_supported", 0L);
        a.put("lmr_sync_req", core.memory.lmrSyncRequired(ia) ? 1L : 0L);
        attributes.value = a;
        return DatReturn.SUCCESS;
    }

    /**
     * The dat_*_query calls of the objects other than the IA: the parameters of the object as a map of field names
     * (those of the DAT_*_PARAM structures) to numbers, in a fixed order. Handles are reported by their presence only;
     * states and flags by their numeric values.
     *
     * @param handle the object (EP, EVD, LMR, RMR, PZ, PSP, CR, SRQ, CNO or RSP)
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
        } else if (handle instanceof Srq) {
            Srq srq = (Srq) handle;
            p.put("srq_state", (long) Srq.STATE_OPERATIONAL);
            p.put("max_recv_dtos", (long) srq.maxRecvDtos);
            p.put("max_recv_iov", (long) srq.maxRecvIov);
            p.put("low_watermark", (long) srq.lowWatermark);
            p.put("available_dto_count", (long) srq.queue.size());
            p.put("outstanding_dto_count", (long) srq.outstanding);
        } else if (handle instanceof Rsp) {
            Rsp rsp = (Rsp) handle;
            p.put("conn_qual", rsp.connQual);
            p.put("ep", rsp.used ? 0L : 1L);
            p.put("evd", 1L);
        } else if (handle instanceof Cno) {
            p.put("ia", 1L);
            p.put("agent", ((Cno) handle).agent != null ? 1L : 0L);
        } else if (handle instanceof Cr) {
            Cr cr = (Cr) handle;
            p.put("remote_port_qual", cr.connQual());
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
            case DatHandle.TYPE_SRQ:
                return DatReturn.SUB_INVALID_HANDLE_SRQ;
            case DatHandle.TYPE_CNO:
                return DatReturn.SUB_INVALID_HANDLE_CNO;
            case DatHandle.TYPE_RSP:
                return DatReturn.SUB_INVALID_HANDLE_RSP;
            default:
                return 0;
        }
    }
}

package org.datsim.scenario.consumer;

import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatEvent;

/**
 * The {@code dequeue} trace line of an event a consumer took (docs/trace-format.md), built in this one place for
 * scenario processes and bridged programs: the event, its endpoint, a completion's operation, cookie, status,
 * opcode, length and immediate data, a connection request, a bound RMR, how long it was queued, and the process.
 */
public final class DequeueLine {

    private DequeueLine() {
    }

    /**
     * Builds the line.
     *
     * @param now the simulated time the event was taken
     * @param host the consumer's host
     * @param process the consumer process's name
     * @param ev the event taken
     * @return the trace event, for the caller to write after its call's line
     */
    public static TraceEvent of(long now, String host, String process, DatEvent ev) {
        TraceEvent d = TraceEvent.of(now, TraceEvent.DEQUEUE, host).attr(TraceKey.EVENT, ev.numberName());
        if (ev.ep != null) {
            d.ep(ev.ep.name());
        }
        if (ev.number == Dat.DTO_COMPLETION_EVENT || ev.number == Dat.IB_DTO_EVENT) {
            d.op(ev.opId).cookie(ev.cookie).status(ev.statusName())
                    .attr(TraceKey.OPCODE, Dat.DTO_OPS.name(ev.operation))
                    .attr(TraceKey.TRANSFERED_LENGTH, ev.transferredLength);
            if (ev.extensionType() == Dat.IB_EXT_RDMA_WRITE_IMMED_DATA) {
                d.attr(TraceKey.IMMEDIATE_DATA, (long) ev.immediateData() & 0xffffffffL);
            }
        }
        if (ev.cr != null) {
            d.attr(TraceKey.CR, ev.cr.name());
        }
        if (ev.rmr != null) {
            d.op(ev.opId).cookie(ev.cookie).status(ev.statusName()).attr(TraceKey.RMR, ev.rmr.name());
        }
        return d.attr(TraceKey.QUEUED_PS, ev.queuedPs).attr(TraceKey.PROCESS, process);
    }
}

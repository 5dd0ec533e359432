package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import org.datsim.core.time.ByteSize;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.fabric.dat.DatHost;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Lmr;
import org.datsim.scenario.load.CpuCall;
import org.datsim.scenario.load.Step;

/**
 * What the consumer's CPU does between DAT calls: writes and reads of registered memory ({@code mem_write},
 * {@code mem_read}, at {@code cpu.memory_bandwidth}, the read checked against the data the step expects) and
 * computing for a while ({@code sleep}). Every call here is typed by the loader ({@link CpuCall}).
 */
final class CpuCalls {

    /** The calls executed here. */
    static final Set<String> CALLS = org.datsim.scenario.load.CallKind.names(CpuCall.Kind.values());

    private CpuCalls() {
    }

    /**
     * Executes one call.
     *
     * @return the CPU time the process spends after the call
     */
    static long execute(ConsumerProcess p, Step s) {
        if (!(s.typed() instanceof CpuCall)) {
            throw new IllegalStateException("call " + s.spec().name() + " is in the catalogue but not executed");
        }
        CpuCall c = (CpuCall) s.typed();
        return switch (c.kind()) {
            case MEM_WRITE -> memWrite(p, s, (CpuCall.MemWrite) c);
            case MEM_READ -> memRead(p, s, (CpuCall.MemRead) c);
            case SLEEP -> {
                p.result().ret(DatReturn.SUCCESS); // not a DAT call: it always "returns" DAT_SUCCESS
                yield p.args().duration(((CpuCall.Sleep) c).time());
            }
        };
    }

    private static long memWrite(ConsumerProcess p, Step s, CpuCall.MemWrite c) {
        Args a = p.args();
        DatHost host = p.host();
        Lmr lmr = a.handle(c.lmr(), Lmr.class);
        JsonNode data = c.data().node();
        long offset = a.number(c.offset(), 0);
        int fill = a.fillByte(data, c.data().path());
        long length = a.dataLength(data, c.data().path());
        TraceEvent e = TraceEvent.of(p.sim().now(), TraceEvent.MEM_WRITE, host.name()).attr(TraceKey.PROCESS, p.name());
        if (lmr == null || lmr.isFreed() || offset < 0 || length < 0 || offset > lmr.length() - length) {
            p.fail(s, lmr == null || lmr.isFreed() ? "mem_write needs a live LMR"
                    : "mem_write of " + length + " bytes at offset " + offset + " is outside the LMR's "
                            + lmr.length() + " bytes");
            return 0;
        }
        long address = lmr.address() + offset;
        if (fill >= 0) {
            host.memory().cpuFill(address, length, (byte) fill);
        } else {
            host.memory().cpuWrite(address, Bytes.literal(data));
        }
        p.runner().trace(e.attr(TraceKey.LMR, lmr.name()).attr(TraceKey.ADDRESS, address).attr(TraceKey.BYTES, length));
        p.result().ret(DatReturn.SUCCESS);
        return p.memoryRate().transmitTimePs(length);
    }

    private static long memRead(ConsumerProcess p, Step s, CpuCall.MemRead c) {
        Args a = p.args();
        DatHost host = p.host();
        Lmr lmr = a.handle(c.lmr(), Lmr.class);
        long offset = a.number(c.offset(), 0);
        long length = a.number(c.length(), 0);
        if (lmr == null || lmr.isFreed() || offset < 0 || length < 0 || offset > lmr.length() - length) {
            p.fail(s, lmr == null || lmr.isFreed() ? "mem_read needs a live LMR"
                    : "mem_read of " + length + " bytes at offset " + offset + " is outside the LMR's "
                            + lmr.length() + " bytes");
            return 0;
        }
        if (length > ScenarioRunner.MAX_MEM_READ) {
            p.fail(s, "mem_read of " + ByteSize.format(length) + " is over the limit of "
                    + ByteSize.format(ScenarioRunner.MAX_MEM_READ) + " per call");
            return 0;
        }
        long address = lmr.address() + offset;
        byte[] got = host.memory().cpuRead(address, (int) length);
        boolean stale = host.memory().cpuViewIsStale(address, length);
        if (p.runner().observingSteps()) {
            p.runner().observeStep(p, s, "data", StepObservations.describe(got));
        }
        TraceEvent e = TraceEvent.of(p.sim().now(), TraceEvent.MEM_READ, host.name()).attr(TraceKey.PROCESS, p.name())
                .attr(TraceKey.LMR, lmr.name()).attr(TraceKey.ADDRESS, address).attr(TraceKey.BYTES, length)
                .attr(TraceKey.STALE, stale)
                .attr(TraceKey.DATA_HEX, Bytes.hex(got, 32));
        Boolean match = Expectations.dataMatches(p, s, got);
        if (match != null) {
            e.attr(TraceKey.MATCH, match.booleanValue());
        }
        CallResult r = p.result();
        r.ret(DatReturn.SUCCESS);
        r.data = got;
        r.stale = stale;
        p.runner().trace(e);
        return p.memoryRate().transmitTimePs(length);
    }
}

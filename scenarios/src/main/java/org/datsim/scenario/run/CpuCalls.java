package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import org.datsim.core.time.ByteSize;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.dat.DatHost;
import org.datsim.fabric.dat.Lmr;
import org.datsim.scenario.load.Step;

/**
 * What the consumer's CPU does between DAT calls: writes and reads of registered memory ({@code mem_write},
 * {@code mem_read}, at {@code cpu.memory_bandwidth}, the read checked against the data the step expects) and
 * computing for a while ({@code sleep}).
 */
final class CpuCalls {

    /** The calls executed here. */
    static final Set<String> CALLS = Set.of("mem_write", "mem_read", "sleep");

    private CpuCalls() {
    }

    /**
     * Executes one call.
     *
     * @return the CPU time the process spends after the call
     */
    static long execute(ConsumerProcess p, Step s) {
        String call = s.spec().name();
        switch (call) {
            case "mem_write":
                return memWrite(p, s);
            case "mem_read":
                return memRead(p, s);
            case "sleep":
                return p.args().duration(s, "time");
            default:
                throw new IllegalStateException("call " + call + " is in the catalogue but not executed");
        }
    }

    private static long memWrite(ConsumerProcess p, Step s) {
        Args a = p.args();
        DatHost host = p.host();
        Lmr lmr = a.handle(s, "lmr", Lmr.class);
        JsonNode data = s.node().get("data");
        long offset = a.number(s, "offset", 0);
        long length = Bytes.length(data);
        TraceEvent e = TraceEvent.of(p.sim().now(), TraceEvent.MEM_WRITE, host.name()).attr("process", p.name());
        if (lmr == null || lmr.isFreed() || offset < 0 || length < 0 || offset > lmr.length() - length) {
            p.fail(s, lmr == null || lmr.isFreed() ? "mem_write needs a live LMR"
                    : "mem_write of " + length + " bytes at offset " + offset + " is outside the LMR's "
                            + lmr.length() + " bytes");
            return 0;
        }
        long address = lmr.address() + offset;
        if (Bytes.fill(data) >= 0) {
            host.memory().cpuFill(address, length, (byte) Bytes.fill(data));
        } else {
            host.memory().cpuWrite(address, Bytes.literal(data));
        }
        p.runner().trace(e.attr("lmr", lmr.name()).attr("address", address).attr("bytes", length));
        return p.memoryRate().transmitTimePs(length);
    }

    private static long memRead(ConsumerProcess p, Step s) {
        Args a = p.args();
        DatHost host = p.host();
        Lmr lmr = a.handle(s, "lmr", Lmr.class);
        long offset = a.number(s, "offset", 0);
        long length = a.number(s, "length", 0);
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
        if (p.runner().observing()) {
            p.runner().observe(p, s, "data", Observations.describe(got));
        }
        TraceEvent e = TraceEvent.of(p.sim().now(), TraceEvent.MEM_READ, host.name()).attr("process", p.name())
                .attr("lmr", lmr.name()).attr("address", address).attr("bytes", length).attr("stale", stale)
                .attr("data_hex", Bytes.hex(got, 32));
        JsonNode want = Outcome.expectNode(s, "data");
        if (want != null) {
            String mismatch = compare(want, got);
            e.attr("match", mismatch == null);
            if (mismatch != null) {
                p.fail(s, mismatch);
            }
        }
        JsonNode wantStale = Outcome.expectNode(s, "stale");
        if (wantStale != null && wantStale.asBoolean() != stale) {
            p.fail(s, "expected stale " + wantStale.asBoolean() + ", got " + stale);
        }
        p.runner().trace(e);
        return p.memoryRate().transmitTimePs(length);
    }

    private static String compare(JsonNode want, byte[] got) {
        long n = Bytes.length(want);
        if (n != got.length) {
            return "expected " + n + " bytes of data but the read has " + got.length
                    + " (give mem_read the same length)";
        }
        int fill = Bytes.fill(want);
        byte[] lit = fill >= 0 ? null : Bytes.literal(want);
        for (int i = 0; i < got.length; i++) {
            byte w = lit == null ? (byte) fill : lit[i];
            if (got[i] != w) {
                return String.format("data differs at byte %d: expected 0x%02x, read 0x%02x (read starts %s)", i,
                        w & 0xff, got[i] & 0xff, Bytes.hex(got, 16));
            }
        }
        return null;
    }
}

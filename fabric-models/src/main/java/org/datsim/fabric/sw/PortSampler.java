package org.datsim.fabric.sw;

import java.util.List;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.link.Port;

/**
 * Samples every switch port at a fixed interval ({@code trace.port_sample_interval}) into the trace, as
 * {@link #PORT_SAMPLE} records that the Perfetto writer turns into counter tracks per switch port. The sampler stops
 * once it is the only thing left to simulate (after a last sample), so it never keeps a finished run alive. Its events
 * read the ports and change nothing else: a run with sampling gives the same results as one without.
 */
public final class PortSampler {

    /**
     * The trace kind of one sample of one switch port, traced on the switch (its name is the event's host). Fields:
     * {@code switch}, {@code port} (the egress, {@code FROM->TO}), {@code queue_bytes} (bytes waiting behind the
     * packet on the wire), {@code paused} (1 while PFC holds the port paused, else 0), {@code pausing} (1 while the
     * switch holds the port's peer paused because the input of this link is over its threshold), {@code ecn_marks}
     * (the packets marked at this port so far), {@code utilisation} (bytes started on the wire during the interval
     * over what the link could carry, 0 to 1, four decimals).
     */
    public static final String PORT_SAMPLE = TraceKind.PORT_SAMPLE;

    private final Simulator sim;
    private final List<Switch> switches;
    private final long intervalPs;
    private final TraceSource<TraceEvent> trace;
    private final long[][] lastBytes;
    private final EventHandler tick = this::tick;

    /**
     * Creates a sampler.
     *
     * @param sim the simulator
     * @param switches the switches whose ports to sample
     * @param intervalPs the interval in picoseconds, more than 0
     * @param trace the trace the samples go to (sampled only while it is enabled)
     */
    public PortSampler(Simulator sim, List<Switch> switches, long intervalPs, TraceSource<TraceEvent> trace) {
        if (intervalPs <= 0) {
            throw new IllegalArgumentException("the sample interval must be more than 0");
        }
        this.sim = sim;
        this.switches = List.copyOf(switches);
        this.intervalPs = intervalPs;
        this.trace = trace;
        this.lastBytes = new long[this.switches.size()][];
        for (int s = 0; s < lastBytes.length; s++) {
            lastBytes[s] = new long[this.switches.get(s).ports().size()];
        }
    }

    /** Schedules the first sample one interval from now. */
    public void start() {
        sim.schedule(intervalPs, tick, 0);
    }

    private void tick(long unused) {
        long now = sim.now();
        boolean on = trace != null && trace.isEnabled();
        for (int s = 0; s < lastBytes.length; s++) {
            Switch sw = switches.get(s);
            List<Port> ports = sw.ports();
            for (int i = 0; i < ports.size(); i++) {
                Port p = ports.get(i);
                long started = p.startedBytes();
                long delta = started - lastBytes[s][i];
                lastBytes[s][i] = started;
                if (on) {
                    double capacity = p.rate().bitsPerSecond() * (intervalPs / 1e12) / 8;
                    double u = Math.min(1.0, delta / capacity);
                    trace.fire(TraceEvent.of(now, PORT_SAMPLE, sw.name()).attr(TraceKey.SWITCH, sw.name())
                            .attr(TraceKey.PORT, p.name()).attr(TraceKey.QUEUE_BYTES, p.queuedBytes())
                            .attr(TraceKey.PAUSED, p.isPaused() ? 1 : 0).attr(TraceKey.PAUSING, sw.pausing(i) ? 1 : 0)
                            .attr(TraceKey.ECN_MARKS, p.counters().ecnMarks())
                            .attr(TraceKey.UTILISATION, Math.round(u * 10_000) / 10_000.0));
                }
            }
        }
        if (sim.pendingCount() > 0) {
            sim.schedule(intervalPs, tick, 0);
        }
    }
}

package org.datsim.fabric.sw;

import java.util.function.Predicate;
import org.datsim.fabric.link.Packet;

/**
 * Fault injection at a switch (for tests and studies of loss): every packet the current predicate accepts is dropped
 * when it arrives, and counted like a packet dropped for want of buffer; the transport recovers it as it recovers any
 * loss. Every switch has one, taking nothing until a fault is injected ({@link #set}): a fault may start and end
 * during a run.
 */
public final class DropFilter {

    private Predicate<Packet> filter;
    private long taken;

    /** Creates a filter that takes nothing. */
    public DropFilter() {
    }

    /**
     * Injects a fault: from now on, the packets the predicate accepts are dropped.
     *
     * @param filter the packets to drop, or null to drop none
     */
    public void set(Predicate<Packet> filter) {
        this.filter = filter;
    }

    /**
     * Returns true if an arriving packet is to be dropped (and counts it).
     *
     * @param packet the packet
     * @return whether it is taken
     */
    public boolean takes(Packet packet) {
        Predicate<Packet> f = filter;
        if (f != null && f.test(packet)) {
            taken++;
            return true;
        }
        return false;
    }

    /** Returns the packets taken so far. */
    public long taken() {
        return taken;
    }

    /** Takes nothing again and forgets the count. */
    public void reset() {
        filter = null;
        taken = 0;
    }
}

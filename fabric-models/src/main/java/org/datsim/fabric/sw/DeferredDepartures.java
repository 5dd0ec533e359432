package org.datsim.fabric.sw;

import org.datsim.fabric.link.Port;

/**
 * The output ports of a switch that report a departure late ({@link org.datsim.fabric.link.Ingress#lazyDepartures}),
 * and when each is due: the switch settles them before it reads its buffer accounting, or makes them exact the moment
 * a departure's time starts to matter (an input paused).
 */
final class DeferredDepartures {

    private final Port[] out;
    /** The listed ports, in the order they deferred. */
    private final int[] port;
    /**
     * Beside each listed port, when its deferred departure is due (or earlier: a port may have deferred a later
     * packet's since): a settlement before then need not touch the port.
     */
    private final long[] until;
    private final boolean[] listed;
    /** How many ports are listed. */
    int count;

    DeferredDepartures(Port[] out) {
        this.out = out;
        this.port = new int[out.length];
        this.until = new long[out.length];
        this.listed = new boolean[out.length];
    }

    /** Lists a port that deferred the departure of the packet on its wire (once). */
    void defer(int p) {
        if (!listed[p]) {
            listed[p] = true;
            until[count] = out[p].sendingEndPs();
            port[count++] = p;
        }
    }

    /** Takes in the departures that listed ports deferred and that have happened by now. */
    void settle(long now) {
        int k = 0;
        for (int i = 0; i < count; i++) {
            int p = port[i];
            long u = until[i];
            if (u > now) { // not due yet (its port's departure, if still deferred, is not earlier)
                until[k] = u;
                port[k++] = p;
                continue;
            }
            u = out[p].settleDeparture();
            if (u >= 0) {
                until[k] = u;
                port[k++] = p;
            } else {
                listed[p] = false;
            }
        }
        count = k;
    }

    /** Makes every listed port report its departure at its instant, and empties the list. */
    void exactAll() {
        for (int i = 0; i < count; i++) {
            listed[port[i]] = false;
            out[port[i]].departureExact();
        }
        count = 0;
    }
}

package org.datsim.fabric.sw;

import org.datsim.fabric.link.Packet;

/**
 * In-band network telemetry ({@code cc.int}): every data packet leaving a switch's egress queue gets a hop record
 * ({@link Packet#pushIntHop}: the time, the port's transmitted bytes before it, the bytes still queued, the port's
 * rate), as HPCC's switch stamps it on dequeue.
 */
public final class IntStamper {

    private final long[] portBps;

    /**
     * Creates the stamper.
     *
     * @param portBps each output port's rate, by port index
     */
    public IntStamper(long[] portBps) {
        this.portBps = portBps.clone();
    }

    /**
     * Appends this hop's record to a data packet.
     *
     * @param packet the packet leaving the queue
     * @param port the output port
     * @param timePs when it starts on the wire
     * @param txBytes the bytes the port started before it
     * @param queuedBytes the bytes still queued behind it
     */
    public void stamp(Packet packet, int port, long timePs, long txBytes, long queuedBytes) {
        packet.pushIntHop(timePs, txBytes, queuedBytes, portBps[port]);
    }

    /** Returns the rate an output port stamps, bits per second. */
    public long rate(int port) {
        return portBps[port];
    }
}

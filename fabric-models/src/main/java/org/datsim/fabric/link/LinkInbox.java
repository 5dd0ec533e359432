package org.datsim.fabric.link;

import org.datsim.core.engine.Carrier;

/**
 * The receiving end of a link whose two nodes run in different partitions ({@link Port#setOwners}): the packets
 * handed over to it, in order of arrival (one link's packets arrive in the order they left), each delivered to the
 * receiving node by its arrival event. It belongs to the receiving node: only that node's partition touches it.
 */
final class LinkInbox implements Carrier {

    private final Port port;
    private Packet[] ring = new Packet[64];
    private int head;
    private int size;

    LinkInbox(Port port) {
        this.port = port;
    }

    @Override
    public void carry(long arg, Object ref) {
        if (size == ring.length) {
            Packet[] t = new Packet[2 * size];
            for (int i = 0; i < size; i++) {
                t[i] = ring[(head + i) & (ring.length - 1)];
            }
            ring = t;
            head = 0;
        }
        ring[(head + size) & (ring.length - 1)] = (Packet) ref;
        size++;
    }

    @Override
    public void handle(long arg) {
        Packet p = ring[head];
        ring[head] = null;
        head = (head + 1) & (ring.length - 1);
        size--;
        port.deliver(p, arg); // the argument is the arrival time
    }
}

package org.datsim.core.engine;

/**
 * An event handler whose events carry an object to the owner they are sent to ({@link
 * Simulator#sendCarried}), such as a packet crossing a link to another node: the object is handed over by {@link
 * #carry} in the thread of the receiving owner's partition, before the event can run, and never read by the sender
 * after it is sent.
 *
 * <p>In one partition {@code carry} is called at the send; across partitions of a {@link PartitionedSimulator} it is
 * called when the receiving partition takes the event from its mailbox, at the start of the next window. Either way,
 * the objects sent by one partition to one {@code Carrier} reach it in the order they were sent, every one before the
 * first of their events runs. A carrier usually queues the object (a FIFO per link) and takes it back when the event
 * runs.
 */
public interface Carrier extends EventHandler {

    /**
     * Receives the object of an event sent with {@link Simulator#sendCarried}, in the receiving partition's thread.
     *
     * @param arg the event's argument (the one {@link #handle} will get)
     * @param ref the object sent
     */
    void carry(long arg, Object ref);
}

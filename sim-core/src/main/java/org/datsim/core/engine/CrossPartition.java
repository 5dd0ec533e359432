package org.datsim.core.engine;

/**
 * Where a partition of a {@link PartitionedSimulator} puts an event owned by another partition's owner (the engine's
 * mailboxes). Called by the partition's thread during a window, or by the set-up code between runs.
 */
interface CrossPartition {

    /**
     * Takes an event for another partition.
     *
     * @param fromPartition the sending partition
     * @param fromOwner the owner that sends it (the executing event's, 0 in set-up code)
     * @param dst the owner of the event
     * @param timePs its time
     * @param delayPs its time minus the sender's clock
     * @param key its key
     * @param h its handler, not null
     * @param arg its argument
     * @param ref the object it carries to its {@link Carrier}, or null
     * @throws IllegalArgumentException if the delay is below the lookahead during a run
     */
    void post(int fromPartition, int fromOwner, int dst, long timePs, long delayPs, long key, EventHandler h, long arg,
            Object ref);
}

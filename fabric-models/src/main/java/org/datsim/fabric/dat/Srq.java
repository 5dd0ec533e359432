package org.datsim.fabric.dat;

import java.util.ArrayDeque;
import org.datsim.fabric.hca.WorkRequest;

/**
 * A shared receive queue: receives posted once and taken, in posting order, by whichever endpoint created with it
 * gets a message first. Its completions are reported on the recv EVD of the endpoint that took the buffer.
 */
public final class Srq extends DatHandle {

    /** DAT_SRQ_STATE_OPERATIONAL. */
    public static final int STATE_OPERATIONAL = 1;
    /** DAT_SRQ_STATE_ERROR. */
    public static final int STATE_ERROR = 0;
    /** DAT_SRQ_LW_DEFAULT: no low-watermark event. */
    public static final int LW_DEFAULT = 0;

    final Pz pz;
    int maxRecvDtos;
    final int maxRecvIov;
    int lowWatermark = LW_DEFAULT;
    /** True between dat_srq_set_lw and the event it arms. */
    boolean lwArmed;
    final ArrayDeque<WorkRequest> queue = new ArrayDeque<>();
    /** The endpoints created with this SRQ. */
    final java.util.List<Ep> eps = new java.util.ArrayList<>();
    /**
     * Explored runs: receives an endpoint's message left for another endpoint's message at {@code srq.arrival_order},
     * with the endpoint that left each; it never takes them itself (its messages keep FIFO order).
     */
    final java.util.Map<WorkRequest, Ep> skippedBy = new java.util.IdentityHashMap<>();
    /** Receives posted and not yet reaped: on the SRQ, held by an endpoint, or completed and still on an EVD. */
    int outstanding;
    /** Endpoints created with this SRQ and not freed. */
    int users;

    Srq(String name, Ia ia, Pz pz, int maxRecvDtos, int maxRecvIov) {
        super(TYPE_SRQ, name, ia);
        this.pz = pz;
        this.maxRecvDtos = maxRecvDtos;
        this.maxRecvIov = maxRecvIov;
    }

    /** Returns the receives waiting on the SRQ (available_dto_count). */
    public int available() {
        return queue.size();
    }

    /** Returns the receives posted and not yet reaped (outstanding_dto_count). */
    public int outstanding() {
        return outstanding;
    }

    /** Returns the low watermark last set (0 is DAT_SRQ_LW_DEFAULT). */
    public int lowWatermark() {
        return lowWatermark;
    }
}

package org.datsim.fabric.hca;

import java.util.ArrayDeque;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;

/**
 * How operations finish, and the error state of queue pairs. A request finished by the transport is reported in
 * posting order per queue pair, a CQE write ({@code pcie.latency}) later; its read credit and any fence it held are
 * released. Errors (remote access, length, RNR or transport retries exhausted) complete the failing operation with
 * its status, flush every other outstanding operation of the queue pair with IBV_WC_WR_FLUSH_ERR, and tell the owner
 * the queue pair is broken; a reset returns a flushed queue pair to its initial state.
 *
 * <p>A part of {@link Hca}: the {@link CompletionSink} every other part reports to. It calls back the send engine
 * ({@link SendScheduler}: a read credit or a fence released) and the reliable transport ({@link AckTimer}: nothing
 * left in flight), wired once by {@link #connect} since both are made after it, and writes CQEs behind the data
 * through the {@link DmaWriter}.
 */
final class Completions implements CompletionSink {

    private final Simulator sim;
    private final long pcieLatency;
    private final DmaWriter dma;
    private final org.datsim.fabric.memory.HostMemory memory;
    /** Set once by {@link #connect}. */
    private SendScheduler sendScheduler;
    /** Set once by {@link #connect}. */
    private AckTimer ackTimer;

    /** The operations whose CQE write is under way, in the order they were reported (the same delay for each). */
    private final ArrayDeque<WorkRequest> cqeWrites = new ArrayDeque<>();
    private final EventHandler completionHandler = a -> {
        WorkRequest wr = cqeWrites.pollFirst();
        wr.reported = true; // its slot may be reused from within the listener (QueuePair#requestSlot)
        wr.qp.listener.requestCompleted(wr);
    };

    /** Collects a queue pair's operations whose CQE write is under way (not reported yet). */
    void reporting(QueuePair qp, boolean messagesOnly, java.util.List<WorkRequest> into) {
        for (WorkRequest w : cqeWrites) {
            if (w.qp == qp && !w.reported && (!messagesOnly || w.opcode == WorkRequest.SEND || w.withImmediate)) {
                into.add(w);
            }
        }
    }

    Completions(HcaContext c, DmaWriter dma) {
        this.sim = c.sim;
        this.pcieLatency = c.pcieLatency;
        this.dma = dma;
        this.memory = c.memory;
    }

    /** Wires the parts this one calls back, once, when the {@link Hca} is built. */
    void connect(SendScheduler scheduler, AckTimer timer) {
        this.sendScheduler = scheduler;
        this.ackTimer = timer;
    }

    /**
     * A request operation has finished on the transport with a status: it is reported once every earlier one of its
     * queue pair has been, and a request waiting for its read credit or behind its fence is looked at again.
     */
    @Override
    public void transportDone(WorkRequest wr, int status) {
        wr.status = status;
        wr.done = true;
        wr.finishedPs = sim.now();
        if (wr.opcode == WorkRequest.RDMA_READ) {
            overtaken(wr);
        }
        drain(wr.qp);
        QueuePair qp = wr.qp;
        if ((qp.transport.ackTimerEvent != 0 || qp.send.rc != null) && qp.transport.firstUnfinished() == null) {
            ackTimer.stop(qp); // nothing in flight: the next request to start sets it again
            sendScheduler.idle(qp);
        }
        sendScheduler.finished(wr);
    }

    /** A request is posted: it is outstanding, in posting order, until its completion is written. */
    @Override
    public void posted(WorkRequest wr) {
        CompletionState s = wr.qp.completion;
        s.outstanding.addLast(wr);
        if (wr.fenceSource()) {
            s.fenceSources++;
        }
    }

    /**
     * An RDMA Read has finished (its data, if any, is in memory): every later operation of its queue pair that carried
     * bytes of the Read's target read before they landed, and that differ from what the memory holds now, overtook it
     * ({@link WorkRequest#overtookRead()}). Nothing to do unless such bytes were kept (only while tracing).
     */
    private void overtaken(WorkRequest read) {
        for (WorkRequest w : read.qp.completion.outstanding) {
            if (w.capturedBeforeRead != read) {
                continue;
            }
            for (int i = 0; i < w.capturedAt.size() && w.overtookRead < 0; i++) {
                byte[] then = w.capturedBytes.get(i);
                byte[] now = new byte[then.length];
                memory.dmaPeek(w.capturedAt.get(i)[0], now, 0, now.length);
                if (!java.util.Arrays.equals(then, now)) {
                    w.overtookRead = read.opId;
                }
            }
            w.capturedBeforeRead = null;
            w.capturedAt = null;
            w.capturedBytes = null;
        }
    }

    /**
     * Reports, in posting order, every finished operation at the head of the outstanding queue; one that finished
     * earlier than the head that unblocked it records that head as what held it back.
     */
    private void drain(QueuePair qp) {
        WorkRequest first = null;
        while (!qp.completion.outstanding.isEmpty() && qp.completion.outstanding.peekFirst().done) {
            WorkRequest head = qp.completion.outstanding.pollFirst();
            if (head.fenceSource()) {
                qp.completion.fenceSources--;
            }
            if (first == null) {
                first = head;
            } else if (head.finishedPs >= 0 && head.finishedPs < sim.now()) {
                head.heldBehind = first.opId; // finished earlier, reported only now (rule 2)
            }
            cqeWrites.addLast(head); // same delay for every CQE write: FIFO order
            sim.schedule(pcieLatency, completionHandler, 0);
        }
    }

    /**
     * A receive finishes with a status: like every completion, a CQE write later, so that an earlier receive still
     * being placed completes first, in order (rule 2).
     */
    void receiveDone(QueuePair qp, WorkRequest recv, int status) {
        recv.status = status;
        recv.done = true;
        sim.schedule(dma.dmaWriteDelay(0, 0), () -> qp.listener.receiveCompleted(recv));
    }

    @Override
    public void receivePlaced(QueuePair qp, WorkRequest recv) {
        recv.status = WcStatus.SUCCESS;
        recv.done = true;
        qp.listener.receiveCompleted(recv);
    }

    /** See {@link Hca#fail}. */
    @Override
    public void fail(QueuePair qp, WorkRequest failing, int status) {
        qp.markSlotsUnsafe();
        if (qp.errored) {
            return;
        }
        if (failing != null) {
            failing.status = status;
            failing.done = true;
        }
        flush(qp, failing);
        qp.listener.broken(status);
    }

    /** A receive fails (a Send longer than it): it completes with its status and the queue pair fails. */
    @Override
    public void failReceive(QueuePair qp, WorkRequest recv, int status) {
        receiveDone(qp, recv, status);
        fail(qp, null, status);
    }

    /**
     * Flushes a queue pair after {@code failing} failed: operations ahead of it were already on their way and finish
     * on their own (rule 44 flushes the later ones); with no failing operation, everything is flushed. Then the
     * posted receives are flushed. "Later" means posted after it, or rung after it: doorbells ring in posting order
     * unless one overtook another (an inline one takes longer), and a request posted before the failing one but rung
     * after it is behind it on the wire and would never finish.
     */
    void flush(QueuePair qp, WorkRequest failing) {
        qp.markSlotsUnsafe(); // flushed requests' doorbells, reads and packets may still be under way
        qp.broken();
        ackTimer.stop(qp);
        sendScheduler.idle(qp);
        boolean postedLater = failing == null;
        for (WorkRequest wr : qp.completion.outstanding) {
            if (wr == failing) {
                postedLater = true;
            } else if (!wr.done && (postedLater || wr.ringOrder > failing.ringOrder)) {
                wr.status = WcStatus.WR_FLUSH_ERR;
                wr.done = true;
            }
        }
        sendScheduler.flushed(qp);
        qp.reads.flush();
        drain(qp);
        for (WorkRequest recv : qp.responder.flushReceives()) {
            receiveDone(qp, recv, WcStatus.WR_FLUSH_ERR);
        }
    }

    /** See {@link Hca#reset}. */
    void resetQueuePair(QueuePair qp) {
        qp.disconnected();
        qp.completion.reset();
        qp.responder.reset();
        qp.reads.reset();
        ackTimer.reset(qp);
        sendScheduler.reset(qp);
    }
}

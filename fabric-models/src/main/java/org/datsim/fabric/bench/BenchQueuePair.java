package org.datsim.fabric.bench;

import org.datsim.fabric.hca.QueuePair;
import org.datsim.fabric.hca.WcStatus;
import org.datsim.fabric.hca.WorkRequest;

/** A queue-pair owner for benchmarks: every remote access is allowed; completions are counted. */
final class BenchQueuePair implements QueuePair.Listener {

    long completed;
    long failed;
    long lastCompletionPs;
    private final org.datsim.core.engine.Simulator sim;
    /** Called after each completion (for example to post the next request), or null. */
    Runnable onCompletion;

    BenchQueuePair(org.datsim.core.engine.Simulator sim) {
        this.sim = sim;
    }

    @Override
    public void requestCompleted(WorkRequest wr) {
        if (wr.status() == WcStatus.SUCCESS) {
            completed++;
        } else {
            failed++;
        }
        lastCompletionPs = sim.now();
        if (onCompletion != null) {
            onCompletion.run();
        }
    }

    @Override
    public void receiveCompleted(WorkRequest wr) {
    }

    @Override
    public void broken(int status) {
        failed++;
    }

    @Override
    public int checkRemoteAccess(int rkey, long address, long length, boolean write) {
        return WcStatus.SUCCESS;
    }
}

package org.datsim.scenario.load;

/**
 * A typed dat_evd_dequeue.
 *
 * @param evd the event dispatcher
 */
public record DequeueCall(Arg evd) implements EventCall {

    @Override
    public Form form() {
        return Form.DEQUEUE;
    }
}

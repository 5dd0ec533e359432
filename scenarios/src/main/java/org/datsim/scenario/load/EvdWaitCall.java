package org.datsim.scenario.load;

/**
 * A typed dat_evd_wait.
 *
 * @param evd the event dispatcher
 * @param timeout the timeout (default DAT_TIMEOUT_INFINITE)
 * @param threshold how many events end the wait (default 1)
 */
public record EvdWaitCall(Arg evd, Arg timeout, Arg threshold) implements EventCall {

    @Override
    public Form form() {
        return Form.EVD_WAIT;
    }
}

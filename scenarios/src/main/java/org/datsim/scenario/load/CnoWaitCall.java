package org.datsim.scenario.load;

/**
 * A typed dat_cno_wait.
 *
 * @param cno the consumer notification object
 * @param timeout the timeout (default DAT_TIMEOUT_INFINITE)
 */
public record CnoWaitCall(Arg cno, Arg timeout) implements EventCall {

    @Override
    public Form form() {
        return Form.CNO_WAIT;
    }
}

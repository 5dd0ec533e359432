package org.datsim.scenario.load;

/**
 * A typed dat_rmr_bind.
 *
 * @param rmr the memory window
 * @param lmr the region it is bound to
 * @param offset the range's offset in the region (default 0)
 * @param length the range's length (0 unbinds)
 * @param memPriv the window's privileges
 * @param ep the endpoint whose request queue carries the bind
 * @param userCookie the cookie (default 0)
 * @param completionFlags the completion flags
 */
public record RmrBindCall(Arg rmr, Arg lmr, Arg offset, Arg length, Arg memPriv, Arg ep, Arg userCookie,
        Arg completionFlags) implements DtoCall {

    @Override
    public Form form() {
        return Form.RMR_BIND;
    }
}

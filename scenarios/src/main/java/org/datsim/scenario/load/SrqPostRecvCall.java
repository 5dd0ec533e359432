package org.datsim.scenario.load;

/**
 * A typed dat_srq_post_recv.
 *
 * @param srq the shared receive queue
 * @param localIov the local segments
 * @param userCookie the cookie (default 0)
 */
public record SrqPostRecvCall(Arg srq, Arg localIov, Arg userCookie) implements DtoCall {

    @Override
    public Form form() {
        return Form.SRQ_POST_RECV;
    }
}

package org.datsim.viz.explain;

/** The fixed phrases of the explanation: short flag names, the rule behind a fence, the reason for a status. */
final class Wording {

    private Wording() {
    }

    /**
     * Returns the short form of completion flags: "BARRIER_FENCE", "SUPPRESS|UNSIGNALLED", or "".
     *
     * @param flags the flag names joined by |
     * @return the short form
     */
    static String shortFlags(String flags) {
        if (flags.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (String f : flags.split("\\|")) {
            String s = f.trim();
            if (s.startsWith("DAT_COMPLETION_")) {
                s = s.substring("DAT_COMPLETION_".length());
            }
            if (s.endsWith("_FLAG")) {
                s = s.substring(0, s.length() - "_FLAG".length());
            }
            if (sb.length() > 0) {
                sb.append('|');
            }
            sb.append(s);
        }
        return sb.toString();
    }

    /**
     * Names the rule behind a {@code fence_wait}.
     *
     * @param reason the trace's {@code reason}
     * @return e.g. "the implicit fence of an earlier dat_rmr_bind (rule 23)"
     */
    static String fenceRule(String reason) {
        switch (reason) {
            case "barrier fence":
                return "the barrier fence (DAT_COMPLETION_BARRIER_FENCE_FLAG, rule 17), which waits for earlier RDMA"
                        + " Reads";
            case "rmr_bind implicit fence":
                return "the implicit fence of an earlier dat_rmr_bind (rule 23)";
            case "strict read ordering":
                return "strict read ordering (transport.read_ordering strict, rule 19), as if fenced";
            default:
                return reason.isEmpty() ? "a fence" : reason;
        }
    }

    /**
     * Explains an error status of a completion, after its name.
     *
     * @param status the DTO status
     * @return ": why ...", or "" for a status without a known reason
     */
    static String statusReason(String status) {
        switch (status) {
            case "DAT_DTO_ERR_REMOTE_ACCESS":
                return ": the responder refused the remote access (an rmr_context not (yet or any longer) bound,"
                        + " rules 24 and 25, or missing privileges, rules 47 and 48); the connection breaks";
            case "DAT_DTO_ERR_RECEIVER_NOT_READY":
                return ": the RNR retries ran out with no receive posted (rule 39); the connection breaks";
            case "DAT_DTO_ERR_LOCAL_LENGTH":
                return ": the message was longer than the receive buffer (rule 37); the connection breaks";
            case "DAT_DTO_ERR_REMOTE_RESPONDER":
                return ": the responder got more RDMA Reads than its max_rdma_read_in (rule 49); the connection"
                        + " breaks";
            case "DAT_RMR_OPERATION_FAILED":
                return ": the bind failed after dat_rmr_bind returned (rule 26); the connection breaks";
            default:
                return "";
        }
    }
}

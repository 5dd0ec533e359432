package org.datsim.viz.explain;

/** The fixed phrases of the explanation: short flag names, the rule behind a fence, the reason for a status. */
final class Wording {

    private Wording() {
    }

    /**
     * The line under a printed explanation that says what its stars mark: every kind of step and happening made
     * notable ({@link Explanation.Line#notable()}), no more. Per operation: fence and read-credit holds, HCA cache
     * misses, completions held behind an earlier one (rule 2), unsignalled completions taken late because they woke
     * no waiter (rule 13), a start past an unfinished RDMA Read or atomic (rules 18 and 19), retransmissions, packets
     * a switch dropped, RNR NAKs, flushes, failures, and never completing; among the other happenings: broken
     * connections and asynchronous errors, dropped connection-management packets, stale or unexpected CPU reads,
     * refused posts, binds and waits, and failed expectations (and connection-manager resends and timeouts, which
     * {@link #STAR_LEGEND_CM} adds). It says "go-back-N resends" and
     * "receiver-not-ready NAKs", not "retransmission" and "RNR": those words mark the steps that tell one, and tests
     * check that the explanation of a run without one never prints them.
     */
    static final String STAR_LEGEND = "(* marks waits for a fence or a read credit, HCA cache misses, held"
            + " completions, unsignalled completions that woke no waiter, starts past an unfinished RDMA Read or"
            + " atomic, go-back-N resends after a loss, switch drops, refusals (receiver-not-ready NAKs, refused"
            + " posts, binds and waits), flushes, failures, broken connections and other errors, stale or unexpected"
            + " reads, failed expectations and operations that never completed.)";

    /**
     * The legend of an explanation that tells connection-manager resends and timeouts ({@link CmResends}): the
     * {@link #STAR_LEGEND} naming them too. Only such an explanation prints it, so that the explanation of every run
     * without a lost CM message stays as it was.
     */
    static final String STAR_LEGEND_CM = STAR_LEGEND.replace("go-back-N resends after a loss, switch drops",
            "go-back-N resends after a loss, connection-manager resends and timeouts, switch drops");

    /** The post of an inline Send or RDMA Write (the trace's {@code "inline": true}). */
    static final String POSTED_INLINE = "was posted inline: the provider copied its bytes into the work request"
            + " now (IBV_SEND_INLINE, its length within hca.max_inline), so it carries them as they are at this post";

    /**
     * The warning on an inline request that a fence held: the fence delays its start, not the copy of its payload.
     *
     * @param heldFor the operations the fence waited for, named
     * @return the text, a verb phrase after the operation's name
     */
    static String inlineFenced(String heldFor) {
        return "carries the payload captured at post, before the fence released: it went inline, so the fence held"
                + " only its start, not the inline copy of its bytes, which was made before " + heldFor + " had"
                + " finished; if its buffer is where " + heldFor + " placed data, it sent the bytes from before that"
                + " (stale). Post it after their completion, make it longer than hca.max_inline, or set"
                + " hca.max_inline to 0";
    }

    /**
     * The legend of an explanation: {@link #STAR_LEGEND}, naming connection-manager resends and timeouts when it tells
     * some ({@link #STAR_LEGEND_CM}) and inline payloads copied before a fence released when it tells one; the
     * explanation of a run with neither keeps the plain legend.
     *
     * @param cm whether it tells connection-manager resends or timeouts
     * @param inlineFenced whether it tells an inline request that a fence held
     * @return the legend
     */
    static String legend(boolean cm, boolean inlineFenced) {
        String legend = cm ? STAR_LEGEND_CM : STAR_LEGEND;
        return inlineFenced ? legend.replace("waits for a fence or a read credit,", "waits for a fence or a read"
                + " credit, inline payloads copied at the post before a fence released,") : legend;
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
     * Names the rule behind a {@code fence_wait}, and for the barrier fence what it waited for.
     *
     * @param reason the trace's {@code reason}
     * @param kinds what the operations waited for are ({@link TraceIndex#readLikeKinds}); 0 if not known
     * @return e.g. "the implicit fence of an earlier dat_rmr_bind (rule 23)"
     */
    static String fenceRule(String reason, int kinds) {
        switch (reason) {
            case "barrier fence":
                if (kinds == TraceIndex.READS) {
                    return "the barrier fence (DAT_COMPLETION_BARRIER_FENCE_FLAG, rule 17), which waits for earlier"
                            + " RDMA Reads";
                }
                if (kinds == TraceIndex.ATOMICS) {
                    return "the barrier fence (DAT_COMPLETION_BARRIER_FENCE_FLAG, rule 18), which on InfiniBand"
                            + " waits for earlier atomics as it does for RDMA Reads";
                }
                return "the barrier fence (DAT_COMPLETION_BARRIER_FENCE_FLAG, rules 17 and 18), which waits for"
                        + " earlier RDMA Reads and atomics";
            case "rmr_bind implicit fence":
                return "the implicit fence of an earlier dat_rmr_bind (rule 23)";
            case "strict read ordering":
                return "strict read ordering (transport.read_ordering strict, rule 19), as if fenced";
            default:
                return reason.isEmpty() ? "a fence" : reason;
        }
    }

    /**
     * Explains a {@code credit_wait}: which requests hold the read credits (rule 49).
     *
     * @param atomic whether the held operation is an atomic
     * @param kinds what the operations it waited for are ({@link TraceIndex#readLikeKinds}); 0 if not known
     * @return the phrase after "was held"
     */
    static String creditHold(boolean atomic, int kinds) {
        int all = kinds | (atomic ? TraceIndex.ATOMICS : TraceIndex.READS);
        String outstanding = all == TraceIndex.READS ? "Reads" : all == TraceIndex.ATOMICS ? "atomics"
                : "RDMA Reads and atomics";
        return "for an RDMA Read credit: max_rdma_read_out " + outstanding + " of its endpoint are outstanding"
                + (all == TraceIndex.READS ? "" : " (an atomic takes a read credit as a Read does)") + ", and "
                + (atomic ? "an atomic" : "a Read") + " beyond the limit waits rather than fails (rule 49)";
    }

    /**
     * Names what made the requester retransmit, after "after".
     *
     * @param reason the {@code reason} of a {@code retransmit} line
     * @return e.g. "a sequence-error NAK"
     */
    static String retransmitCause(String reason) {
        switch (reason) {
            case "ack_timeout":
                return "a local ACK timeout";
            case "nak_sequence_error":
                return "a sequence-error NAK";
            case "response_missing":
                return "a missing response";
            default:
                return reason.isEmpty() ? "a loss" : reason;
        }
    }

    /**
     * Explains what a retransmission's reason tells of the loss.
     *
     * @param reason the {@code reason} of a {@code retransmit} line
     * @param what the kind of request for a missing response ("RDMA Read" or "atomic")
     * @return the explanation, a clause
     */
    static String retransmitWhy(String reason, String what) {
        switch (reason) {
            case "ack_timeout":
                return "the requester had heard nothing from the responder (no ACK, NAK or response) for 1 to 2 times"
                        + " hca.ack_timeout, so a packet it sent after the last one acknowledged, or the"
                        + " acknowledgement coming back, was lost";
            case "nak_sequence_error":
                return "the responder got a packet out of sequence and refused it, so a packet before that one, of"
                        + " this operation or a later one, was lost";
            case "response_missing":
                return "a later response, or the acknowledgement of a later request, came back while a response of"
                        + " this " + what + " had not, so that response or its request was lost";
            default:
                return "a packet was lost";
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
                return ": the responder refused it with an error NAK (IBV_WC_REM_INV_REQ_ERR or IBV_WC_REM_OP_ERR):"
                        + " a Send longer than the receive it took (rule 37), more RDMA Reads or atomics than its"
                        + " max_rdma_read_in (rule 49), a misaligned atomic, or its endpoint no longer connected;"
                        + " the connection breaks";
            case "DAT_DTO_ERR_TRANSPORT":
                return ": the transport gave up on it: its retries after local ACK timeouts ran out"
                        + " (hca.retry_count); the connection breaks";
            case "DAT_RMR_OPERATION_FAILED":
                return ": the bind failed after dat_rmr_bind returned (rule 26); the connection breaks";
            default:
                return "";
        }
    }
}

package org.datsim.scenario.load;

/** The kinds of argument a scenario call takes, each with the JSON it accepts. */
public enum ArgType {
    /** A named handle: "$name", "$name.field" or "$process/name.field", or null for DAT_HANDLE_NULL. */
    HANDLE("a handle reference such as \"$ep\" (or null)"),
    /** A whole number, or a reference to one. */
    INT("a whole number, a reference such as \"$buf.length\" or an expression such as \"= $i * 2\""),
    /** A size: a whole number of bytes, a string such as "4KiB", or a reference. */
    SIZE("a byte count, a size such as \"4KiB\", a reference or an expression"),
    /** Flags of one DAT group: a name, names joined by "|", an array of names, or a number. */
    FLAGS("a flag name such as \"DAT_COMPLETION_SUPPRESS_FLAG\", names joined by \"|\", or a number"),
    /** A DAT_TIMEOUT: a time such as "10us", whole microseconds, an expression (microseconds) or "DAT_TIMEOUT_INFINITE". */
    TIMEOUT("a time such as \"10us\", a number of microseconds, or \"DAT_TIMEOUT_INFINITE\""),
    /** A host: its name, or {"host_index": expression} to pick one of the fabric's hosts by position. */
    HOST("a host name, or {\"host_index\": expression} for the fabric's hosts by position"),
    /** A simulated duration such as "1.5us". */
    DURATION("a time such as \"250ns\" or \"1.5us\""),
    /** A plain string. */
    STRING("a string"),
    /** A local IOV: an array of {"lmr": "$buf", "offset": 0, "length": 64}. */
    IOV("an array of segments {\"lmr\": \"$buf\", \"offset\": 0, \"length\": 64}"),
    /** A remote target: {"rmr_context": ..., "address": ..., "length": ..., "offset": 0}. */
    RMR("an object {\"rmr_context\": ..., \"address\": ..., \"length\": ...}"),
    /** Bytes: {"text": "..."}, {"hex": "..."} or {"fill": 171, "length": 64}. */
    DATA("an object with one of \"text\", \"hex\" or \"fill\" (with \"length\")"),
    /** Endpoint attributes: an object of DAT_EP_ATTR fields. */
    EP_ATTR("an object of endpoint attributes such as {\"max_request_dtos\": 16}"),
    /** SRQ attributes: an object of DAT_SRQ_ATTR fields. */
    SRQ_ATTR("an object of SRQ attributes such as {\"max_recv_dtos\": 16, \"max_recv_iov\": 1}");

    private final String expected;

    ArgType(String expected) {
        this.expected = expected;
    }

    /** Returns what the JSON must look like, for error messages. */
    public String expected() {
        return expected;
    }
}

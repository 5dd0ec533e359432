#!/usr/bin/env python3
"""Writes the litmus scenarios of scenarios/litmus/ (datsim explore's suite). Run from the repository root."""
import json

TIMEOUT = 2  # us: the Send completes about 1.1 us after the wait starts

OUT = "scenarios/litmus/"


def server(name, host, conns, lmrs, body, noncoherent_reads=()):
    """A process that accepts `conns` connections (conn_qual 1000+i), runs `body`, waits for every disconnect."""
    c = [{"call": "dat_ia_open", "out": "ia"},
         {"call": "dat_pz_create", "ia": "$ia", "out": "pz"},
         {"call": "dat_evd_create", "ia": "$ia", "evd_min_qlen": 8, "evd_flags": "DAT_EVD_CR_FLAG", "out": "cr_evd"},
         {"call": "dat_evd_create", "ia": "$ia", "evd_min_qlen": 32, "evd_flags": "DAT_EVD_DTO_FLAG",
          "out": "dto_evd"}]
    for i in range(conns):
        c.append({"call": "dat_evd_create", "ia": "$ia", "evd_min_qlen": 8, "evd_flags": "DAT_EVD_CONNECTION_FLAG",
                  "out": "conn_evd%d" % i})
    for lname, length, fill in lmrs:
        c.append({"call": "dat_lmr_create", "ia": "$ia", "pz": "$pz", "length": length, "out": lname})
        if fill != 0:  # memory starts zeroed; a CPU write would leave written (dirty) lines on a non-coherent host
            c.append({"call": "mem_write", "lmr": "$" + lname, "data": {"fill": fill, "length": length}})
    for lname, length in noncoherent_reads:
        c.append({"call": "mem_read", "lmr": "$" + lname, "length": length,
                  "comment": "the CPU reads early: the lines stay in its non-coherent cache"})
    for i in range(conns):
        c.append({"call": "dat_ep_create", "ia": "$ia", "pz": "$pz", "recv_evd": "$dto_evd",
                  "request_evd": "$dto_evd", "connect_evd": "$conn_evd%d" % i, "out": "ep%d" % i})
    c += body.get("before_accept", [])
    for i in range(conns):
        c.append({"call": "dat_psp_create", "ia": "$ia", "conn_qual": 1000 + i, "evd": "$cr_evd", "out": "psp%d" % i})
    for i in range(conns):
        c.append({"call": "dat_evd_wait", "evd": "$cr_evd", "out": "req%d" % i,
                  "expect": {"event": "DAT_CONNECTION_REQUEST_EVENT"}})
        c.append({"call": "dat_cr_accept", "cr": "$req%d.cr" % i, "ep": "$ep%d" % i})
        c.append({"call": "dat_evd_wait", "evd": "$conn_evd%d" % i,
                  "expect": {"event": "DAT_CONNECTION_EVENT_ESTABLISHED"}})
    if body.get("go"):
        # Every client waits for a "go" Send, sent to all back to back: their operations start together.
        c.append({"call": "dat_lmr_create", "ia": "$ia", "pz": "$pz", "length": 8, "out": "go"})
        for i in range(conns):
            c.append({"call": "dat_ep_post_send", "ep": "$ep%d" % i, "local_iov": [{"lmr": "$go", "length": 8}],
                      "user_cookie": 900 + i})
        if body.get("go_sleep"):
            c.append({"call": "sleep", "time": "5us", "comment": "both completions are queued before B looks"})
        for i in range(conns):
            w = {"call": "dat_evd_wait", "evd": "$dto_evd", "expect": {"operation": "DAT_DTO_SEND"}}
            if i == 0 and body.get("observe_first"):
                w["observe"] = {"first": "cookie", "first_ep": "ep"}
            c.append(w)
    c += body.get("after_accept", [])
    for i in range(conns):
        c.append({"call": "dat_evd_wait", "evd": "$conn_evd%d" % i,
                  "expect": {"event": "DAT_CONNECTION_EVENT_DISCONNECTED"}})
    c += body.get("after_disconnect", [])
    c.append({"call": "dat_ia_close", "ia": "$ia", "flags": "DAT_CLOSE_ABRUPT_FLAG"})
    return {"name": name, "host": host, "calls": c}


def client(name, host, peer, qual, lmrs, body, start="1us", go=False):
    c = [{"call": "dat_ia_open", "out": "ia"},
         {"call": "dat_pz_create", "ia": "$ia", "out": "pz"},
         {"call": "dat_evd_create", "ia": "$ia", "evd_min_qlen": 8, "evd_flags": "DAT_EVD_CONNECTION_FLAG",
          "out": "conn_evd"},
         {"call": "dat_evd_create", "ia": "$ia", "evd_min_qlen": 32, "evd_flags": "DAT_EVD_DTO_FLAG",
          "out": "dto_evd"}]
    for lname, length, fill in lmrs:
        c.append({"call": "dat_lmr_create", "ia": "$ia", "pz": "$pz", "length": length, "out": lname})
        c.append({"call": "mem_write", "lmr": "$" + lname, "data": {"fill": fill, "length": length}})
    c.append({"call": "dat_ep_create", "ia": "$ia", "pz": "$pz", "recv_evd": "$dto_evd", "request_evd": "$dto_evd",
              "connect_evd": "$conn_evd", "out": "ep"})
    if go:
        c.append({"call": "dat_lmr_create", "ia": "$ia", "pz": "$pz", "length": 8, "out": "go"})
        c.append({"call": "dat_ep_post_recv", "ep": "$ep", "local_iov": [{"lmr": "$go", "length": 8}],
                  "user_cookie": 900})
    c.append({"call": "dat_ep_connect", "ep": "$ep", "remote_ia_address": peer, "remote_conn_qual": qual})
    c.append({"call": "dat_evd_wait", "evd": "$conn_evd", "expect": {"event": "DAT_CONNECTION_EVENT_ESTABLISHED"}})
    if go:
        c.append({"call": "dat_evd_wait", "evd": "$dto_evd", "expect": {"operation": "DAT_DTO_RECEIVE"},
                  "comment": "go"})
    c += body
    c.append({"call": "dat_ep_disconnect", "ep": "$ep", "flags": "DAT_CLOSE_GRACEFUL_FLAG"})
    c.append({"call": "dat_evd_wait", "evd": "$conn_evd", "expect": {"event": "DAT_CONNECTION_EVENT_DISCONNECTED"}})
    c.append({"call": "dat_ia_close", "ia": "$ia", "flags": "DAT_CLOSE_ABRUPT_FLAG"})
    return {"name": name, "host": host, "start": start, "calls": c}


def write(src, dst_proc, dst_lmr, length, cookie, offset=0, extra=None):
    w = {"call": "dat_ep_post_rdma_write", "ep": "$ep", "local_iov": [{"lmr": "$" + src, "length": length}],
         "user_cookie": cookie,
         "remote_iov": {"rmr_context": "$%s/%s.rmr_context" % (dst_proc, dst_lmr),
                        "address": "$%s/%s.address" % (dst_proc, dst_lmr) if offset == 0
                        else "= $%s/%s.address + %d" % (dst_proc, dst_lmr, offset), "length": length}}
    w.update(extra or {})
    return w


def read(dst, src_proc, src_lmr, length, cookie):
    return {"call": "dat_ep_post_rdma_read", "ep": "$ep", "local_iov": [{"lmr": "$" + dst, "length": length}],
            "user_cookie": cookie,
            "remote_iov": {"rmr_context": "$%s/%s.rmr_context" % (src_proc, src_lmr),
                           "address": "$%s/%s.address" % (src_proc, src_lmr), "length": length}}


def wait_dto(op, cookie):
    return {"call": "dat_evd_wait", "evd": "$dto_evd",
            "expect": {"operation": op, "status": "DAT_DTO_SUCCESS", "cookie": cookie}}


def fill(v, n=64):
    return {"fill": v, "length": n}


def scenario(name, description, hosts, links, procs, params=None, host_params=None, outcomes=None):
    fabric = {"hosts": hosts, "links": [{"a": a, "b": b} for a, b in links]}
    if len(hosts) > 2:
        fabric["switches"] = ["S"]
        fabric["links"] = [{"a": h, "b": "S"} for h in hosts]
    if params:
        fabric["params"] = params
    if host_params:
        fabric["host_params"] = host_params
    d = {"$schema": "../scenario.schema.json", "scenario": name, "description": description, "seed": 1,
         "fabric": fabric, "processes": procs}
    if outcomes:
        d["outcomes"] = outcomes
    with open(OUT + name + ".json", "w") as f:
        json.dump(d, f, indent=2)
        f.write("\n")


# 1. Read then Write of the same location (RW), both read orderings.
for ordering, verdict in (("relaxed", "both X=0x22 (old) and X=0x33 (new) are allowed: the Write may execute at"
                           " the responder before the Read fetched its data (rule 19)"),
                          ("strict", "only X=0x22 (old) is allowed: every operation waits for the earlier Reads of"
                           " its endpoint, as if fenced (rule 17)")):
    scenario("rw-same-location-" + ordering,
             "Litmus RW: A RDMA-Reads 64 bytes of X (0x22) from B into L, then RDMA-Writes 0x33 over X on the same"
             " endpoint, no fence; A then reads L. Read ordering " + ordering + ": " + verdict + ". RDMA^TSO (Ambal"
             " et al., OOPSLA 2024) likewise lets a later Write on the same queue pair overtake a Read (the verdict"
             " here is derived from the DAT rules: the paper's text was not available to us).",
             ["A", "B"], [("A", "B")],
             [server("b", "B", 1, [("X", 64, 0x22)], {}),
              client("a", "A", "B", 1000, [("L", 64, 0x11), ("N", 64, 0x33)],
                     [read("L", "b", "X", 64, 1), write("N", "b", "X", 64, 2),
                      wait_dto("DAT_DTO_RDMA_READ", 1), wait_dto("DAT_DTO_RDMA_WRITE", 2),
                      {"call": "mem_read", "lmr": "$L", "length": 64, "observe": "L",
                       "comment": "what the Read returned"}])],
             params={"transport.read_ordering": ordering},
             outcomes={"allowed": [{"L": {"one_of": [fill(0x22), fill(0x33)]}}]} if ordering == "relaxed"
             else {"allowed": [{"L": fill(0x22)}], "forbidden": [{"L": fill(0x33)}]})

# 2. Writes to one location from two endpoints (2W / coherence).
scenario("ww-two-endpoints",
         "Litmus 2W: A and C each RDMA-Write 64 bytes over the same X at B (A 0xa1, C 0xc1), on their own"
         " endpoints, at the same time; B reads X once both connections are closed (so both Writes have completed)."
         " Verdict: both X=0xa1 and X=0xc1 are allowed, and nothing else (each Write lands whole where they"
         " overlap in one of the two orders): DAT gives operations of different endpoints no order (rules 2,"
         " 20); RDMA^TSO likewise orders only the operations of one queue pair (derived from the DAT rules: the"
         " paper's text was not available to us).",
         ["A", "B", "C"], [("A", "B"), ("C", "B")],
         [server("b", "B", 2, [("X", 64, 0)],
                 {"go": True, "after_disconnect": [{"call": "mem_read", "lmr": "$X", "length": 64, "observe": "X",
                                                    "comment": "who wrote last"}]}),
          client("a", "A", "B", 1000, [("S", 64, 0xa1)],
                 [write("S", "b", "X", 64, 1), wait_dto("DAT_DTO_RDMA_WRITE", 1)], go=True),
          client("c", "C", "B", 1001, [("S", 64, 0xc1)],
                 [write("S", "b", "X", 64, 1), wait_dto("DAT_DTO_RDMA_WRITE", 1)], go=True)],
         outcomes={"allowed": [{"X": {"one_of": [fill(0xa1), fill(0xc1)]}}]})


# 2b. Completions of two endpoints on one EVD.
scenario("evd-order-two-endpoints",
         "Litmus: B Sends a go to A and to C on its two endpoints, whose request completions share one EVD, and"
         " dequeues both completions once both are queued. Verdict: both orders (cookie 900 first, or 901 first)"
         " are allowed: streams of different endpoints sharing an EVD have no relative order (rule 2).",
         ["A", "B", "C"], [("A", "B"), ("C", "B")],
         [server("b", "B", 2, [], {"go": True, "go_sleep": True}),
          client("a", "A", "B", 1000, [], [], go=True),
          client("c", "C", "B", 1001, [], [], go=True)])

# 2c. The same without the sleep: B waits at once, so the first completion is usually reaped before the second is
# queued; B may be slower than that (the wait is a reap, evd.reap_order), so both orders are still allowed.
scenario("evd-order-two-endpoints-wait-at-once",
         "Litmus: as evd-order-two-endpoints, but B waits for the completions at once, without sleeping first."
         " Verdict: both orders are allowed all the same (rule 2): nothing orders a completion of one endpoint before"
         " another endpoint's that is still in flight when the first is reaped; explore opens it at evd.reap_order.",
         ["A", "B", "C"], [("A", "B"), ("C", "B")],
         [server("b", "B", 2, [], {"go": True, "observe_first": True}),
          client("a", "A", "B", 1000, [], [], go=True),
          client("c", "C", "B", 1001, [], [], go=True)],
         outcomes={"allowed": [{"first": 900, "first_ep": "B/ep0"}, {"first": 901, "first_ep": "B/ep1"}]})

# 3. Message passing through a flag (MP), on a CPU non-coherent receiver, without and with the sync.
def mp(sync):
    after = [{"call": "dat_evd_wait", "evd": "$dto_evd", "out": "rcv",
              "expect": {"operation": "DAT_DTO_RECEIVE", "status": "DAT_DTO_SUCCESS"}}]
    if sync:
        after.append({"call": "dat_lmr_sync_rdma_write", "ia": "$ia",
                      "local_segments": [{"lmr": "$F", "length": 64}, {"lmr": "$D", "length": 64}]})
    after += [{"call": "mem_read", "lmr": "$F", "length": 8, "observe": "flag", "comment": "the flag"},
              {"call": "mem_read", "lmr": "$D", "length": 8, "observe": "data", "comment": "the data"}]
    return server("b", "B", 1, [("D", 64, 0), ("F", 64, 0), ("msg", 64, 0)],
                  {"before_accept": [{"call": "dat_ep_post_recv", "ep": "$ep0",
                                      "local_iov": [{"lmr": "$msg", "length": 64}], "user_cookie": 9}],
                   "after_accept": after},
                  noncoherent_reads=[("D", 64), ("F", 64)])


for sync in (False, True):
    scenario("mp-flag-noncoherent" + ("-sync" if sync else ""),
             "Litmus MP: A RDMA-Writes the data D (0x01), then the flag F (0x01), then Sends a note, on one"
             " endpoint; B (memory.coherence cpu_noncoherent, the lines of D and F in its CPU cache) receives the"
             " note, so both Writes have landed (rule 38), " + ("calls dat_lmr_sync_rdma_write on D and F, " if sync
                                                                 else "") + "and reads F then D. Verdict: "
             + ("only F=1, D=1 (the sync makes the CPU read memory, rule 32)" if sync else
                "every one of F=0/1 with D=0/1 is allowed, the weak F=1, D=0 included: without the sync what"
                " the CPU reads is undefined (rule 32), line by line")
             + ". On coherent x86 memory RDMA^TSO forbids the weak outcome of this MP (Writes of one queue pair"
             " land in order); DAT's non-coherent hosts need the sync for it (derived from the DAT rules: the"
             " paper's text was not available to us).",
             ["A", "B"], [("A", "B")],
             [mp(sync),
              client("a", "A", "B", 1000, [("one", 64, 1), ("note", 64, 0x6e)],
                     [write("one", "b", "D", 64, 1), write("one", "b", "F", 64, 2),
                      {"call": "dat_ep_post_send", "ep": "$ep", "local_iov": [{"lmr": "$note", "length": 64}],
                       "user_cookie": 3},
                      wait_dto("DAT_DTO_RDMA_WRITE", 1), wait_dto("DAT_DTO_RDMA_WRITE", 2),
                      wait_dto("DAT_DTO_SEND", 3)])],
             host_params={"B": {"memory.coherence": "cpu_noncoherent"}},
             outcomes={"allowed": [{"flag": fill(1, 8), "data": fill(1, 8)}],
                       "forbidden": [{"flag": fill(1, 8), "data": fill(0, 8)}]} if sync else
             {"allowed": [{"flag": {"one_of": [fill(0, 8), fill(1, 8)]}, "data": {"one_of": [fill(0, 8), fill(1, 8)]}}]})

# 4. Polling for completion, then reading.
scenario("poll-then-read",
         "Litmus: A RDMA-Reads X (0x5a) from B into L (0x11 before), polls for the Read's completion"
         " (dat_evd_wait) and then reads L. Verdict: only L=0x5a is allowed, never the 0x11 that L held before: a"
         " completion implies its data is in place (rules 1, 2). RDMA^TSO: a poll that sees a get's completion sees"
         " its data (derived from the DAT rules: the paper's text was not available to us).",
         ["A", "B"], [("A", "B")],
         [server("b", "B", 1, [("X", 64, 0x5a)], {}),
          client("a", "A", "B", 1000, [("L", 64, 0x11)],
                 [read("L", "b", "X", 64, 1), wait_dto("DAT_DTO_RDMA_READ", 1),
                  {"call": "mem_read", "lmr": "$L", "length": 64, "observe": "L", "comment": "after the completion"}])],
         outcomes={"allowed": [{"L": fill(0x5a)}], "forbidden": [{"L": fill(0x11)}]})

# 5. An arrival racing a timeout.
scenario("wait-timeout-race",
         "Litmus: A posts a Send and waits for its completion with dat_evd_wait and a timeout of 2 us; the"
         " completion arrives less than a microsecond before the deadline. Verdict: both the completion and"
         " DAT_TIMEOUT_EXPIRED are allowed: the timeout is given in microseconds (rule 5), so an arrival within"
         " its last microsecond races the timer.",
         ["A", "B"], [("A", "B")],
         [server("b", "B", 1, [("R", 64, 0)],
                 {"before_accept": [{"call": "dat_ep_post_recv", "ep": "$ep0",
                                     "local_iov": [{"lmr": "$R", "length": 64}], "user_cookie": 9}],
                  "after_accept": [wait_dto("DAT_DTO_RECEIVE", 9)]}),
          client("a", "A", "B", 1000, [("M", 64, 0x4d)],
                 [{"call": "dat_ep_post_send", "ep": "$ep", "local_iov": [{"lmr": "$M", "length": 64}],
                   "user_cookie": 1},
                  {"call": "dat_evd_wait", "evd": "$dto_evd", "timeout": TIMEOUT, "expect": {"ret": "any"},
                   "comment": "the completion, or DAT_TIMEOUT_EXPIRED"},
                  {"call": "sleep", "time": "5us"}])])

scenario("wait-timeout-late-arrival",
         "Litmus: A RDMA-Writes 64 KiB to B and waits for its completion with dat_evd_wait and a timeout of 1 us;"
         " the timing model completes the Write several microseconds later. Verdict: both DAT_TIMEOUT_EXPIRED and"
         " the completion are allowed: nothing bounds how fast the fabric completes an operation already in flight"
         " (rule 5; explore opens it at evd.arrival_before_timeout).",
         ["A", "B"], [("A", "B")],
         [server("b", "B", 1, [("X", 65536, 0)], {}),
          client("a", "A", "B", 1000, [("S", 65536, 0x5a)],
                 [write("S", "b", "X", 65536, 1),
                  {"call": "dat_evd_wait", "evd": "$dto_evd", "timeout": 1, "observe": "in_time",
                   "expect": {"ret": {"one_of": ["DAT_SUCCESS", "DAT_TIMEOUT_EXPIRED"]}},
                   "comment": "the Write's completion, or DAT_TIMEOUT_EXPIRED"},
                  {"call": "sleep", "time": "20us"}])],
         outcomes={"allowed": [{"in_time": {"one_of": ["DAT_DTO_SUCCESS", "DAT_TIMEOUT_EXPIRED"]}}]})

# 5b. An RDMA Read of one endpoint against another endpoint's RDMA Write to the same location.
scenario("read-vs-write-two-endpoints",
         "Litmus: A RDMA-Reads 64 bytes of X (0x22) at B into L while C RDMA-Writes 0xc1 over X, each on its own"
         " endpoint, at the same time (after B's go); A then reads L. Verdict: both L=0x22 (the Read fetched before"
         " the Write landed) and L=0xc1 (after) are allowed: nothing orders operations of different endpoints (rule"
         " 2; explore opens it at transport.read_vs_write). The rules give the Read no atomicity against the Write"
         " either, so a mix of the two is allowed in principle; explore fetches a raced Read whole, before or after"
         " each Write, and this one-packet Read shows none.",
         ["A", "B", "C"], [("A", "B"), ("C", "B")],
         [server("b", "B", 2, [("X", 64, 0x22)], {"go": True}),
          client("a", "A", "B", 1000, [("L", 64, 0x11)],
                 [read("L", "b", "X", 64, 1), wait_dto("DAT_DTO_RDMA_READ", 1),
                  {"call": "mem_read", "lmr": "$L", "length": 64, "observe": "L",
                   "comment": "what the Read returned"}], go=True),
          client("c", "C", "B", 1001, [("S", 64, 0xc1)],
                 [write("S", "b", "X", 64, 1), wait_dto("DAT_DTO_RDMA_WRITE", 1)], go=True)],
         outcomes={"allowed": [{"L": {"one_of": [fill(0x22), fill(0xc1)]}}]})

# 5c. A CPU write-back racing a remote RDMA Read on a CPU non-coherent host, without and with the sync (lesson 6).
for sync in (False, True):
    scenario("cpu-writeback-remote-read" + ("-sync" if sync else ""),
             "Litmus: B (memory.coherence cpu_noncoherent) writes X (0x22) with its CPU"
             + (" and calls dat_lmr_sync_rdma_read on it" if sync else ", without dat_lmr_sync_rdma_read")
             + "; A then RDMA-Reads X into L and reads L. Verdict: "
             + ("only L=0x22: the sync wrote the CPU's bytes back before the Read (rule 31)" if sync else
                "both L=0x00 (memory's stale bytes: the CPU's are still in its cache) and L=0x22 (the cache happened"
                " to write the line back before the fetch) are allowed (rule 31; explore opens it at"
                " memory.cpu_writeback)") + ".",
             ["A", "B"], [("A", "B")],
             [server("b", "B", 1, [("X", 64, 0x22)],
                     {"before_accept": [{"call": "dat_lmr_sync_rdma_read", "ia": "$ia",
                                         "local_segments": [{"lmr": "$X", "length": 64}]}] if sync else []}),
              client("a", "A", "B", 1000, [("L", 64, 0x11)],
                     [read("L", "b", "X", 64, 1), wait_dto("DAT_DTO_RDMA_READ", 1),
                      {"call": "mem_read", "lmr": "$L", "length": 64, "observe": "L",
                       "comment": "what the Read returned"}])],
             host_params={"B": {"memory.coherence": "cpu_noncoherent"}},
             outcomes={"allowed": [{"L": fill(0x22)}], "forbidden": [{"L": fill(0)}]} if sync else
             {"allowed": [{"L": {"one_of": [fill(0), fill(0x22)]}}]})

# The size figure: 3 endpoints that post, 6 operations.
scenario("three-endpoints-six-ops",
         "Not a litmus test: the explorer's size figure. Three hosts, four endpoints, six operations on one 64-byte"
         " X and Z at B (0x22, 0): B sends a go to A and to C; A Reads X then Writes it (0xa1) without a fence; C"
         " Writes X (0xc1), then Z (0xc2). A reads what its Read returned; B reads X and Z once both connections are"
         " closed.",
         ["A", "B", "C"], [("A", "B"), ("C", "B")],
         [dict(server("b", "B", 2, [("X", 64, 0x22), ("Z", 64, 0)],
                      {"go": True, "after_disconnect": [{"call": "mem_read", "lmr": "$X", "length": 64},
                                                        {"call": "mem_read", "lmr": "$Z", "length": 64}]})),
          client("a", "A", "B", 1000, [("L", 64, 0), ("N", 64, 0xa1)],
                 [read("L", "b", "X", 64, 1), write("N", "b", "X", 64, 2),
                  wait_dto("DAT_DTO_RDMA_READ", 1), wait_dto("DAT_DTO_RDMA_WRITE", 2),
                  {"call": "mem_read", "lmr": "$L", "length": 64}], go=True),
          client("c", "C", "B", 1001, [("S", 64, 0xc1), ("T", 64, 0xc2)],
                 [write("S", "b", "X", 64, 1), write("T", "b", "Z", 64, 2),
                  wait_dto("DAT_DTO_RDMA_WRITE", 1), wait_dto("DAT_DTO_RDMA_WRITE", 2)], go=True)])



# 2d. Two senders into one SRQ: either message may take the first receive.
def srq_client(name, host, value):
    c = [{"call": "dat_ia_open", "out": "ia"},
         {"call": "dat_pz_create", "ia": "$ia", "out": "pz"},
         {"call": "dat_evd_create", "ia": "$ia", "evd_min_qlen": 8, "evd_flags": "DAT_EVD_CONNECTION_FLAG",
          "out": "conn_evd"},
         {"call": "dat_evd_create", "ia": "$ia", "evd_min_qlen": 8, "evd_flags": "DAT_EVD_DTO_FLAG", "out": "dto_evd"},
         {"call": "dat_ep_create", "ia": "$ia", "pz": "$pz", "recv_evd": "$dto_evd", "request_evd": "$dto_evd",
          "connect_evd": "$conn_evd", "out": "ep"},
         {"call": "dat_lmr_create", "ia": "$ia", "pz": "$pz", "length": 64, "out": "msg"},
         {"call": "mem_write", "lmr": "$msg", "data": fill(value)},
         {"call": "dat_ep_connect", "ep": "$ep", "remote_ia_address": "B", "remote_conn_qual": 10},
         {"call": "dat_evd_wait", "evd": "$conn_evd", "expect": {"event": "DAT_CONNECTION_EVENT_ESTABLISHED"}},
         {"call": "dat_ep_post_send", "ep": "$ep", "local_iov": [{"lmr": "$msg", "length": 64}], "user_cookie": 7},
         {"call": "dat_evd_wait", "evd": "$dto_evd", "expect": {"status": "DAT_DTO_SUCCESS"}},
         {"call": "dat_ep_disconnect", "ep": "$ep", "flags": "DAT_CLOSE_GRACEFUL_FLAG"},
         {"call": "dat_evd_wait", "evd": "$conn_evd", "expect": {"event": "DAT_CONNECTION_EVENT_DISCONNECTED"}},
         {"call": "dat_ia_close", "ia": "$ia", "flags": "DAT_CLOSE_ABRUPT_FLAG"}]
    return {"name": name, "host": host, "start": "1us", "calls": c}


def srq_server():
    c = [{"call": "dat_ia_open", "out": "ia"},
         {"call": "dat_pz_create", "ia": "$ia", "out": "pz"},
         {"call": "dat_evd_create", "ia": "$ia", "evd_min_qlen": 8, "evd_flags": "DAT_EVD_CR_FLAG", "out": "cr_evd"},
         {"call": "dat_evd_create", "ia": "$ia", "evd_min_qlen": 8, "evd_flags": "DAT_EVD_CONNECTION_FLAG",
          "out": "conn_evd"},
         {"call": "dat_evd_create", "ia": "$ia", "evd_min_qlen": 32, "evd_flags": "DAT_EVD_DTO_FLAG",
          "out": "dto_evd"},
         {"call": "dat_lmr_create", "ia": "$ia", "pz": "$pz", "length": 256, "out": "buf"},
         {"call": "dat_srq_create", "ia": "$ia", "pz": "$pz", "srq_attr": {"max_recv_dtos": 4, "max_recv_iov": 1},
          "out": "srq"}]
    for i in range(2):
        c.append({"call": "dat_srq_post_recv", "srq": "$srq",
                  "local_iov": [{"lmr": "$buf", "offset": 64 * i, "length": 64}], "user_cookie": i + 1})
    for i in (1, 2):
        c.append({"call": "dat_ep_create_with_srq", "ia": "$ia", "pz": "$pz", "recv_evd": "$dto_evd",
                  "request_evd": "$dto_evd", "connect_evd": "$conn_evd", "srq": "$srq", "out": "ep%d" % i})
    c.append({"call": "dat_psp_create", "ia": "$ia", "conn_qual": 10, "evd": "$cr_evd", "out": "psp"})
    for i in (1, 2):
        c.append({"call": "dat_evd_wait", "evd": "$cr_evd", "out": "r%d" % i})
        c.append({"call": "dat_cr_accept", "cr": "$r%d.cr" % i, "ep": "$ep%d" % i})
    for event in ("ESTABLISHED", "ESTABLISHED", "DISCONNECTED", "DISCONNECTED"):
        c.append({"call": "dat_evd_wait", "evd": "$conn_evd", "expect": {"event": "DAT_CONNECTION_EVENT_" + event}})
    c.append({"call": "mem_read", "lmr": "$buf", "offset": 0, "length": 64, "observe": "first_buffer",
              "comment": "whose message took the first receive"})
    c.append({"call": "dat_ia_close", "ia": "$ia", "flags": "DAT_CLOSE_ABRUPT_FLAG"})
    return {"name": "b", "host": "B", "calls": c}


scenario("srq-two-senders",
         "Litmus: A and C each Send 64 bytes (0xa1, 0xc1) to B's two endpoints, which share one SRQ with two"
         " receives posted. Verdict: either message may take the SRQ's first receive (rule 36: receives are taken in"
         " posting order by whichever message arrives first, and nothing orders the two connections' messages).",
         ["A", "B", "C"], [("A", "B"), ("C", "B")],
         [srq_server(), srq_client("a", "A", 0xa1), srq_client("c", "C", 0xc1)],
         outcomes={"allowed": [{"first_buffer": {"one_of": [fill(0xa1), fill(0xc1)]}}]})

package org.datsim.fabric.hca;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.choice.ChoicePoint;
import org.datsim.core.choice.ChoiceSource;

/**
 * The HCA's choice points: where the transport rules allow another order than the one the timing model makes.
 * Consulted only when the simulator explores ({@link org.datsim.core.engine.Simulator#exploring()}); otherwise the
 * callers skip these methods and the HCA behaves as the timing model alone.
 *
 * <p>{@link #READ_FETCH} (rule 19): an RDMA Read's data may be fetched at the responder before or after the RDMA
 * Writes posted after it on the same endpoint without a fence execute there. {@link #WRITE_ORDER} (rule 20, and the
 * absence of any order between endpoints, rule 2): two RDMA Writes of different endpoints in flight at once may be
 * placed in either order where they overlap. {@link #READ_WRITE_RACE} (rule 2): an RDMA Read of one endpoint may
 * fetch before or after an overlapping RDMA Write of another ({@link ReadRaces}).
 *
 * <p>The reduction: a point is offered only where its alternatives can differ in memory (a later Write overlapping
 * the Read's range; overlapping Writes whose bytes differ there). Alternatives that touch no common byte commute, so
 * every execution the reduction leaves out has the same observable outcome as one it keeps.
 */
public final class HcaChoices {

    /** Rule 19: when an RDMA Read fetches its data, relative to the unfenced RDMA Writes posted after it. */
    public static final ChoicePoint READ_FETCH = new ChoicePoint("transport.read_fetch", "rule 19",
            "an RDMA Read admitted at the responder with k later unfenced RDMA Writes of its endpoint overlapping its"
                    + " range: 0 the timing model's fetch (packet by packet as the responses leave), 1 all its data"
                    + " fetched at once before any of those Writes executes, 2..k+1 after the first 1..k of them");
    /** Rules 2, 20: the order in which overlapping RDMA Writes of different endpoints land. */
    public static final ChoicePoint WRITE_ORDER = new ChoicePoint("placement.write_order", "rules 2, 20",
            "an RDMA Write packet placed where an RDMA Write of another endpoint placed different bytes, their"
                    + " lifetimes overlapping (the other had not finished when this one was posted): 0 this one lands"
                    + " last (the timing model's order), 1 the other lands last");

    /**
     * Rule 19 at the requester: a Send or RDMA Write of a buffer that an earlier RDMA Read of its endpoint is still
     * filling may fetch its payload before or after the Read's data lands there.
     */
    public static final ChoicePoint PAYLOAD_FETCH = new ChoicePoint("transport.payload_fetch", "rule 19",
            "a Send or RDMA Write (not inline, not fenced) whose local buffer overlaps the destination of an earlier,"
                    + " unfinished RDMA Read of its endpoint: 0 the timing model's (its payload fetched when the send"
                    + " engine takes it up), 1 it is taken up after the Read completed (its payload the Read's data)");

    /**
     * Rule 2: nothing orders an RDMA Read of one endpoint and an RDMA Write of another endpoint to an overlapping
     * range; the Read may fetch before or after the Write lands.
     */
    public static final ChoicePoint READ_WRITE_RACE = new ChoicePoint("transport.read_vs_write", "rule 2",
            "an RDMA Read admitted at the responder whose range overlaps RDMA Writes of other endpoints, their"
                    + " lifetimes overlapping its own: 0 the timing model's fetch, 1..b its data fetched at once"
                    + " before the last 1..b of those Writes that had landed (newest first), b+1..b+1+f fetched at"
                    + " once now, after the first 0..f of those not landed yet (in posting order)");

    /** The most Write placements a responder remembers (the oldest are forgotten first). */
    static final int MAX_PLACED = 4096;
    /** The largest RDMA Read whose data a choice fetches at once (larger ones keep the timing model's fetch). */
    static final long MAX_SNAPSHOT = 16L << 20;

    private HcaChoices() {
    }

    /**
     * An RDMA Read was admitted at its responder: offers {@link #READ_FETCH} if unfenced Writes posted after it on
     * its endpoint overlap its range, and if the choice is not the timing model's, fetches its data now (with the
     * chosen Writes' bytes over it) into {@link WorkRequest#readSnapshot}, which its responses then carry.
     */
    static void readAdmitted(HcaContext c, QueuePair responder, WorkRequest wr) {
        ChoiceSource ch = c.sim.choices();
        QueuePair requester = wr.qp;
        if (wr.payloadFree || wr.length <= 0 || wr.length > MAX_SNAPSHOT || wr.readSnapshot != null) {
            return;
        }
        ReadRaces.ReadRace race = ReadRaces.choose(c, responder, wr);
        if (requester.hca.strictReadOrdering()) {
            if (race != null) {
                wr.readSnapshot = snapshot(c, wr, race, List.of(), 0);
            }
            return;
        }
        ArrayList<WorkRequest> later = new ArrayList<>();
        boolean after = false;
        for (WorkRequest o : requester.completion.outstanding) {
            if (o == wr) {
                after = true;
                continue;
            }
            if (!after) {
                continue;
            }
            if (o.opcode == WorkRequest.BIND || (o.sendFlags & WorkRequest.SEND_FENCE) != 0) {
                break; // it, and everything after it, waits for the Read (rules 17, 23)
            }
            if (o.opcode != WorkRequest.RDMA_WRITE || o.payloadFree) {
                continue;
            }
            boolean overlaps = o.remoteAddress < wr.remoteAddress + wr.length
                    && wr.remoteAddress < o.remoteAddress + o.length;
            if ((overlaps || !ch.reduce())
                    && responder.listener.checkRemoteAccess(o.rkey, o.remoteAddress, o.length, true)
                            == WcStatus.SUCCESS) {
                later.add(o);
            }
        }
        if (later.isEmpty()) {
            if (race != null) {
                wr.readSnapshot = snapshot(c, wr, race, later, 0);
            }
            return;
        }
        // The responder fetches the Reads of one endpoint in order: this Read cannot fetch before a Write that an
        // earlier Read of its endpoint fetched after. The latest earlier Read that was offered the point bounds it:
        // after the timing model's fetch, this one keeps the timing model's too (it fetches later, as its responses
        // leave later); after a choice j, it fetches after at least those of the first j - 1 Writes that are also
        // later than it.
        int floor = 0;
        WorkRequest previous = null;
        for (WorkRequest o : requester.completion.outstanding) {
            if (o == wr) {
                break;
            }
            if (o.opcode == WorkRequest.RDMA_READ && o.fetchChoice >= 0) {
                previous = o;
            }
        }
        if (previous != null) {
            if (previous.fetchChoice == 0) {
                wr.fetchChoice = 0;
                wr.fetchLater = later;
                if (race != null) {
                    wr.readSnapshot = snapshot(c, wr, race, later, 0);
                }
                return;
            }
            for (int i = 0; i < previous.fetchChoice - 1; i++) {
                if (later.contains(previous.fetchLater.get(i))) {
                    floor++;
                }
            }
        }
        int k;
        if (previous == null) {
            k = ch.choose(READ_FETCH, later.size() + 2, c.hostName);
        } else {
            // No timing alternative here: alternative a fetches after the first floor + a of the later Writes.
            int a = later.size() - floor + 1 > 1 ? ch.choose(READ_FETCH, later.size() - floor + 1, c.hostName) : 0;
            k = floor + a + 1;
        }
        wr.fetchChoice = k;
        wr.fetchLater = later;
        if (k == 0 && race == null) {
            return;
        }
        wr.readSnapshot = snapshot(c, wr, race, later, k);
    }

    /**
     * Fetches a Read's data at once: memory (as it was before the Writes of other endpoints that {@code race}
     * undoes), the unplaced bytes of its endpoint's earlier Writes, the other endpoints' Writes {@code race} puts
     * before it, then the first {@code k - 1} of its endpoint's later Writes.
     */
    private static byte[] snapshot(HcaContext c, WorkRequest wr, ReadRaces.ReadRace race, List<WorkRequest> later, int k) {
        QueuePair requester = wr.qp;
        byte[] snapshot = new byte[(int) wr.length];
        c.memory.dmaRead(wr.remoteAddress, snapshot, 0, snapshot.length);
        if (race != null) {
            race.undo(wr, snapshot);
        }
        // The Writes of its endpoint posted before it executed before it (in order at the responder): those bytes
        // of theirs that their DMA has not placed yet belong in what it fetches. Those posted before the earlier
        // Read whose view bounds this one's go under the Writes of other endpoints that Read saw; the rest over them.
        long split = race == null ? Long.MAX_VALUE : race.split();
        overlayOwnEarlier(c, wr, snapshot, Long.MIN_VALUE, split);
        if (race != null) {
            for (int i = 0; i < race.forced(); i++) {
                overlay(race.after().get(i), wr, snapshot);
            }
            overlayOwnEarlier(c, wr, snapshot, split, Long.MAX_VALUE);
            for (int i = race.forced(); i < race.after().size(); i++) {
                overlay(race.after().get(i), wr, snapshot);
            }
            List<Follows> follows = c.placements.follows;
            for (WorkRequest w : race.racing()) {
                if (follows.size() >= MAX_PLACED) {
                    follows.remove(0); // the oldest, long landed
                }
                follows.add(new Follows(w, wr));
            }
        }
        for (int i = 0; i < k - 1; i++) {
            overlay(later.get(i), wr, snapshot);
        }
        return snapshot;
    }

    /**
     * Overlays on a Read's snapshot the unplaced bytes of its endpoint's earlier Writes whose operation ids lie in
     * {@code [from, to)}: those still outstanding, then those acknowledged whose DMA has not placed them (the
     * responder ACKs a Write on arrival).
     */
    private static void overlayOwnEarlier(HcaContext c, WorkRequest wr, byte[] snapshot, long from, long to) {
        for (WorkRequest o : wr.qp.completion.outstanding) {
            if (o == wr) {
                break;
            }
            if (o.opcode == WorkRequest.RDMA_WRITE && !o.payloadFree && o.opId >= from && o.opId < to) {
                overlayUnplaced(c, o, wr, snapshot);
            }
        }
        if (c.placements != null) {
            for (Arrived a : c.placements.arrived) {
                if (a.wr.qp == wr.qp && a.wr.opId == a.opId && a.opId >= from && a.opId < to) {
                    overlayRange(a.wr, a.offset, a.length, wr, snapshot);
                }
            }
        }
    }

    /** Copies the bytes of a Write that its DMA has not placed yet into the part of a Read's snapshot it overlaps. */
    private static void overlayUnplaced(HcaContext c, WorkRequest write, WorkRequest read, byte[] snapshot) {
        long lo = Math.max(write.remoteAddress, read.remoteAddress);
        long hi = Math.min(write.remoteAddress + write.length, read.remoteAddress + read.length);
        if (hi <= lo) {
            return;
        }
        boolean[] placed = new boolean[(int) (hi - lo)];
        if (c.placements != null) {
            for (Placed p : c.placements.placed) {
                if (p.wr != write) {
                    continue;
                }
                for (long a = Math.max(lo, p.address); a < Math.min(hi, p.address + p.bytes.length); a++) {
                    placed[(int) (a - lo)] = true;
                }
            }
        }
        byte[] with = snapshot.clone();
        overlay(write, read, with);
        for (long a = lo; a < hi; a++) {
            if (!placed[(int) (a - lo)]) {
                snapshot[(int) (a - read.remoteAddress)] = with[(int) (a - read.remoteAddress)];
            }
        }
    }

    /** Copies the bytes of part of a Write (its offset and length) into the part of a Read's snapshot it overlaps. */
    private static void overlayRange(WorkRequest write, long offset, int length, WorkRequest read, byte[] snapshot) {
        long lo = Math.max(write.remoteAddress + offset, read.remoteAddress);
        long hi = Math.min(write.remoteAddress + offset + length, read.remoteAddress + read.length);
        if (hi <= lo) {
            return;
        }
        byte[] with = snapshot.clone();
        overlay(write, read, with);
        System.arraycopy(with, (int) (lo - read.remoteAddress), snapshot, (int) (lo - read.remoteAddress),
                (int) (hi - lo));
    }

    /** Copies the bytes a Write will place into the part of a Read's snapshot that it overlaps. */
    static void overlay(WorkRequest write, WorkRequest read, byte[] snapshot) {
        long lo = Math.max(write.remoteAddress, read.remoteAddress);
        long hi = Math.min(write.remoteAddress + write.length, read.remoteAddress + read.length);
        if (hi <= lo) {
            return;
        }
        int len = (int) (hi - lo);
        byte[] bytes = new byte[len];
        long off = lo - write.remoteAddress;
        if (write.inlineData != null) {
            System.arraycopy(write.inlineData, (int) off, bytes, 0, len);
        } else {
            write.copySegments(write.qp.hca.memory(), off, bytes, len, false);
        }
        System.arraycopy(bytes, 0, snapshot, (int) (lo - read.remoteAddress), len);
    }

    /**
     * Offers {@link #PAYLOAD_FETCH} once for a Send or Write about to be taken up: whether it waits for the earlier
     * unfinished RDMA Reads of its queue pair whose destination its buffer overlaps.
     *
     * @return true if it waits for them (alternative 1)
     */
    static boolean payloadAfterRead(HcaContext c, WorkRequest wr) {
        if (wr.payloadChoice >= 0) {
            return wr.payloadChoice == 1;
        }
        if ((wr.opcode != WorkRequest.SEND && wr.opcode != WorkRequest.RDMA_WRITE) || wr.inlineData != null
                || wr.payloadFree || wr.segAddress == null) {
            return false;
        }
        boolean overlaps = false;
        for (WorkRequest o : wr.qp.completion.outstanding) {
            if (o == wr) {
                break;
            }
            if (o.opcode == WorkRequest.RDMA_READ && !o.done && !o.payloadFree && o.segAddress != null
                    && (segmentsOverlap(o, wr) || !c.sim.choices().reduce())) {
                overlaps = true;
            }
        }
        if (!overlaps) {
            return false;
        }
        wr.payloadChoice = c.sim.choices().choose(PAYLOAD_FETCH, 2, c.hostName);
        return wr.payloadChoice == 1;
    }

    private static boolean segmentsOverlap(WorkRequest a, WorkRequest b) {
        for (int i = 0; i < a.segAddress.length; i++) {
            for (int j = 0; j < b.segAddress.length; j++) {
                if (a.segAddress[i] < b.segAddress[j] + b.segLength[j]
                        && b.segAddress[j] < a.segAddress[i] + a.segLength[i]) {
                    return true;
                }
            }
        }
        return false;
    }

    /** One RDMA Write packet placed while its operation is in flight: its endpoint, operation, range and bytes. */
    record Placed(QueuePair qp, WorkRequest wr, long address, byte[] bytes, byte[] before) {
    }

    /** A Write packet that arrived at the responder and waits for its DMA: its operation (and id), range. */
    private record Arrived(WorkRequest wr, long opId, long offset, int length) {
    }

    /** The recent Write placements at one responder, and the arrived packets not placed yet (explored runs only). */
    static final class Placements {
        final List<Placed> placed = new ArrayList<>();
        private final List<Arrived> arrived = new ArrayList<>();
        /** RDMA Writes posted towards this responder that have not placed a byte here yet. */
        final List<WorkRequest> incoming = new ArrayList<>();
        /** Writes of other endpoints that a Read fetched after ({@link ReadRaces}): each lands after its earlier Writes. */
        final List<Follows> follows = new ArrayList<>();
        /** What each raced Read saw last ({@link ReadRaces}): the endpoint's later Reads see at least as much. */
        final List<ReadRaces.Seen> seen = new ArrayList<>();
    }

    /**
     * A Write that a Read of another endpoint fetched after: it lands after the Read's endpoint's earlier Writes
     * (which the Read follows), so {@link #WRITE_ORDER} may not put those last over it.
     */
    record Follows(WorkRequest write, WorkRequest read) {
    }

    /**
     * Places an earlier placement's bytes again over the part of a new one they overlap (it lands last), and
     * remembers that as a placement of its own, over the new one's bytes (so a Read may fetch before it).
     */
    private static void placeAgain(HcaContext c, Placed p, long address, byte[] data, int length) {
        long lo = Math.max(address, p.address);
        long hi = Math.min(address + length, p.address + p.bytes.length);
        if (hi <= lo) {
            return;
        }
        c.memory.dmaWrite(lo, p.bytes, (int) (lo - p.address), (int) (hi - lo));
        byte[] bytes = java.util.Arrays.copyOfRange(p.bytes, (int) (lo - p.address), (int) (hi - p.address));
        byte[] under = java.util.Arrays.copyOfRange(data, (int) (lo - address), (int) (hi - address));
        c.placements.placed.add(new Placed(p.qp, p.wr, lo, bytes, under));
    }

    /** Whether {@code later} must land after {@code earlier} (a Read fetched {@code later} after {@code earlier}). */
    private static boolean mustFollow(Placements pl, WorkRequest later, WorkRequest earlier) {
        for (Follows f : pl.follows) {
            if (f.write() == later && earlier.qp == f.read().qp && earlier.opId < f.read().opId) {
                return true;
            }
        }
        return false;
    }

    /** A request was posted (explored runs): an RDMA Write is remembered at its responder until it lands. */
    static void writePosted(WorkRequest wr) {
        QueuePair peer = wr.qp.peer;
        if (wr.opcode != WorkRequest.RDMA_WRITE || wr.payloadFree || peer == null) {
            return;
        }
        HcaContext rc = peer.hca.context();
        if (rc.placements == null) {
            rc.placements = new Placements();
        }
        List<WorkRequest> incoming = rc.placements.incoming;
        if (incoming.size() >= MAX_PLACED) {
            incoming.remove(0);
        }
        incoming.add(wr);
    }

    /** The bytes a Write packet is about to replace (explored runs), read without a choice point. */
    static byte[] bytesBefore(HcaContext c, long address, int length) {
        byte[] old = new byte[length];
        c.memory.dmaPeek(address, old, 0, length);
        return old;
    }

    /** A Write packet arrived at its responder; its DMA will place it (explored runs). */
    static void writeArrived(HcaContext c, WorkRequest wr, long offset, int length) {
        if (c.placements == null) {
            c.placements = new Placements();
        }
        List<Arrived> arrived = c.placements.arrived;
        if (arrived.size() >= MAX_PLACED) {
            arrived.remove(0); // one whose placement never came (a flushed queue pair): forget the oldest
        }
        arrived.add(new Arrived(wr, wr.opId, offset, length));
    }

    /**
     * An RDMA Write packet's bytes have just been placed: offers {@link #WRITE_ORDER} against the placements of
     * other endpoints' Writes whose lifetimes overlap its own (not finished when it was posted) and whose bytes
     * differ where they overlap it, and on alternative 1 places their bytes again over it (they land last). Then
     * remembers this placement.
     */
    static void writePlaced(HcaContext c, QueuePair qp, WorkRequest wr, long address, byte[] data, int length,
            byte[] before) {
        ChoiceSource ch = c.sim.choices();
        if (c.placements == null) {
            c.placements = new Placements();
        }
        List<Placed> placed = c.placements.placed;
        if (placed.size() >= MAX_PLACED) {
            placed.remove(0);
        }
        List<Placed> others = new ArrayList<>();
        List<Placed> candidates = new ArrayList<>(); // the forced and the offered, in placement order
        List<Placed> forced = null;
        for (Placed p : placed) {
            if (p.qp == qp) {
                continue; // the same endpoint: its Writes land in order
            }
            if (!c.placements.follows.isEmpty()) {
                if (mustFollow(c.placements, wr, p.wr)) {
                    continue; // a Read saw this one land after it: it lands last
                }
                if (mustFollow(c.placements, p.wr, wr)) {
                    if (forced == null) {
                        forced = new ArrayList<>();
                    }
                    forced.add(p); // a Read saw that one land after this one: it lands last, no choice
                    candidates.add(p);
                    continue;
                }
            }
            if (p.wr.finishedPs >= 0 && p.wr.finishedPs <= wr.postedPs) {
                continue; // it had finished before this one was posted: their lifetimes do not overlap
            }
            long lo = Math.max(address, p.address);
            long hi = Math.min(address + length, p.address + p.bytes.length);
            boolean differs = false;
            for (long a = lo; a < hi && !differs; a++) {
                differs = data[(int) (a - address)] != p.bytes[(int) (a - p.address)];
            }
            if (differs || !ch.reduce()) {
                others.add(p);
                candidates.add(p);
            }
        }
        placed.add(new Placed(qp, wr, address, java.util.Arrays.copyOf(data, length), before));
        boolean otherLast = !others.isEmpty() && ch.choose(WRITE_ORDER, 2, c.hostName) == 1;
        if (forced != null || otherLast) {
            for (Placed p : candidates) {
                if (otherLast || forced.contains(p)) {
                    placeAgain(c, p, address, data, length);
                }
            }
        }
        c.placements.incoming.remove(wr);
        long offset = address - wr.remoteAddress;
        c.placements.arrived.removeIf(a -> a.wr == wr && a.opId == wr.opId && a.offset == offset);
    }
}

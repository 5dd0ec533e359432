package org.datsim.fabric.hca;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.choice.ChoiceSource;

/**
 * {@link HcaChoices#READ_WRITE_RACE} (rule 2): an RDMA Read of one endpoint against RDMA Writes of other endpoints
 * to an overlapping range. Nothing orders operations of different endpoints, so the Read may fetch before a Write
 * that the timing model had already placed, or after one that it had not placed yet.
 *
 * <p>What is opened, at the Read's admission at its responder (explored runs): the Writes of other endpoints whose
 * lifetimes overlap the Read's (not finished when it was posted, as {@link HcaChoices#WRITE_ORDER} uses them) and
 * whose bytes differ from memory's over the Read's range. Landed ones, newest first, back to the newest placement of
 * the Read's own endpoint there (its earlier Writes precede it); unlanded ones in posting order (those of one
 * endpoint land in order). The Read then fetches its whole range at once: before the last 1..b landed ones, or now,
 * after the first 0..f unlanded ones. Narrower than the rules: the Read is one fetch (no mix of before and after within
 * it, which a multi-packet Read under the timing model can still show), and unlanded Writes of several endpoints
 * are taken in posting order only. A Write counts as landed from its first packet's placement.
 */
final class ReadRaces {

    private ReadRaces() {
    }

    /**
     * Offers the point for a Read just admitted.
     *
     * @return the alternative taken as a {@link ReadRace}, or null for the timing model's fetch (or no point)
     */
    static ReadRace choose(HcaContext c, QueuePair responder, WorkRequest wr) {
        if (c.placements == null) {
            return null;
        }
        ChoiceSource ch = c.sim.choices();
        long lo = wr.remoteAddress;
        long hi = wr.remoteAddress + wr.length;
        List<HcaChoices.Placed> landed = new ArrayList<>();
        List<HcaChoices.Placed> placed = c.placements.placed;
        for (int i = placed.size() - 1; i >= 0; i--) {
            HcaChoices.Placed p = placed.get(i);
            if (p.address() >= hi || p.address() + p.bytes().length <= lo) {
                continue;
            }
            if (p.qp() == responder || p.before() == null) {
                break; // its own endpoint's Write: it precedes the Read, and so does all before it
            }
            if (p.wr().finishedPs >= 0 && p.wr().finishedPs <= wr.postedPs) {
                break; // finished before the Read was posted: their lifetimes do not overlap
            }
            if (!ch.reduce() || differs(p.bytes(), p.before())) {
                landed.add(p);
            }
        }
        List<WorkRequest> unlanded = new ArrayList<>();
        List<WorkRequest> racing = new ArrayList<>();
        byte[] mem = null;
        for (WorkRequest w : c.placements.incoming) {
            if (w.qp == wr.qp || w.done || w.finishedPs >= 0 || w.qp.peer == null
                    || w.remoteAddress >= hi || w.remoteAddress + w.length <= lo) {
                continue;
            }
            if (w.qp.peer.listener.checkRemoteAccess(w.rkey, w.remoteAddress, w.length, true) != WcStatus.SUCCESS) {
                continue; // it will fail: it never lands
            }
            racing.add(w);
            if (ch.reduce()) {
                if (mem == null) {
                    mem = new byte[(int) wr.length];
                    c.memory.dmaPeek(lo, mem, 0, mem.length);
                }
                byte[] with = mem.clone();
                HcaChoices.overlay(w, wr, with);
                if (!differs(with, mem)) {
                    continue;
                }
            }
            unlanded.add(w);
        }
        int b = landed.size();
        int size = b + unlanded.size();
        // The responder fetches one endpoint's Reads in order: this Read sees at least the Writes that the latest
        // earlier Read of its endpoint to which the point applied saw (after its timing fetch, the timing fetch).
        Seen before = earlierSeen(c.placements, wr);
        Object earlier = before == null ? null : before.last();
        int p;
        int floor = 0;
        if (earlier == TIMING) {
            remember(c.placements, new Seen(wr, TIMING));
            return null;
        } else if (earlier != null) {
            for (int i = 0; i < size; i++) {
                if (writeAt(landed, unlanded, i) == earlier) {
                    floor = i + 1;
                }
            }
            int count = size - floor + 1;
            p = floor + (count > 1 ? ch.choose(HcaChoices.READ_WRITE_RACE, count, c.hostName) : 0);
        } else {
            int alternatives = 1 + b + (unlanded.isEmpty() ? 0 : 1 + unlanded.size());
            if (alternatives == 1) {
                return null;
            }
            int a = ch.choose(HcaChoices.READ_WRITE_RACE, alternatives, c.hostName);
            if (a == 0) {
                remember(c.placements, new Seen(wr, TIMING));
                return null;
            }
            p = a <= b ? b - a : a - 1;
        }
        remember(c.placements, new Seen(wr, p == 0 ? NONE : writeAt(landed, unlanded, p - 1)));
        long split = before == null ? Long.MAX_VALUE : before.read().opId;
        if (p < b) {
            return new ReadRace(landed.subList(0, b - p), List.of(), 0, split, racing);
        }
        // The Writes the earlier Read saw are not this one's to order: they stay as that Read left them.
        List<WorkRequest> own = new ArrayList<>(racing);
        int forced = Math.max(0, floor - b);
        own.removeAll(unlanded.subList(0, forced));
        for (int i = 0; i < Math.min(floor, b); i++) {
            own.remove(writeAt(landed, unlanded, i));
        }
        return new ReadRace(List.of(), unlanded.subList(0, p - b), forced, split, own);
    }

    /** Remembers what a Read saw (at most {@link HcaChoices#MAX_PLACED}, the oldest forgotten first). */
    private static void remember(HcaChoices.Placements pl, Seen seen) {
        if (pl.seen.size() >= HcaChoices.MAX_PLACED) {
            pl.seen.remove(0);
        }
        pl.seen.add(seen);
    }

    /** The Write at position i of the Writes a Read races, oldest landed first, then the unlanded ones. */
    private static WorkRequest writeAt(List<HcaChoices.Placed> landed, List<WorkRequest> unlanded, int i) {
        int b = landed.size();
        return i < b ? landed.get(b - 1 - i).wr() : unlanded.get(i - b);
    }

    /** What the latest earlier Read of the same endpoint saw last (TIMING, NONE, a Write), or null. */
    private static Seen earlierSeen(HcaChoices.Placements pl, WorkRequest wr) {
        Seen best = null;
        for (Seen s : pl.seen) {
            if (s.read().qp == wr.qp && s.read().opId < wr.opId && (best == null || s.read().opId > best.read().opId)
                    && s.read().remoteAddress < wr.remoteAddress + wr.length
                    && wr.remoteAddress < s.read().remoteAddress + s.read().length) {
                best = s;
            }
        }
        return best;
    }

    /** A Read took the timing model's fetch. */
    static final Object TIMING = new Object();
    /** A Read fetched before every Write it raced. */
    static final Object NONE = new Object();

    /** What a Read to which the point applied saw last: {@link #TIMING}, {@link #NONE}, or a Write. */
    record Seen(WorkRequest read, Object last) {
    }

    private static boolean differs(byte[] a, byte[] b) {
        return !java.util.Arrays.equals(a, b);
    }

    /**
     * The alternative taken: the landed Writes the Read fetched before (newest first), the unlanded ones it fetched
     * after (in posting order; the first {@code forced} of them because an earlier Read of its endpoint, id
     * {@code split}, saw them), and every unlanded one it races (each lands after the Read's endpoint's earlier
     * Writes, which the Read, fetched now, follows).
     */
    record ReadRace(List<HcaChoices.Placed> before, List<WorkRequest> after, int forced, long split,
            List<WorkRequest> racing) {

        /** Puts back, over the Read's snapshot, the bytes the undone placements replaced (newest first). */
        void undo(WorkRequest read, byte[] snapshot) {
            for (HcaChoices.Placed p : before) {
                long lo = Math.max(p.address(), read.remoteAddress);
                long hi = Math.min(p.address() + p.bytes().length, read.remoteAddress + read.length);
                if (hi > lo) {
                    System.arraycopy(p.before(), (int) (lo - p.address()), snapshot, (int) (lo - read.remoteAddress),
                            (int) (hi - lo));
                }
            }
        }
    }
}

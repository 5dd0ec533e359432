package org.datsim.fabric.cc;

import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.IntFunction;

/**
 * A small packet-level test network, independent of datsim's fabric: N senders, each behind its own NIC at line
 * rate, into one switch egress queue (the bottleneck) towards one receiver, with fixed propagation delays. The
 * switch marks ECN RED-style (kmin, kmax, pmax) on the queue length when a packet leaves and appends an INT record
 * (queue length, transmitted bytes, time, rate); the receiver acknowledges every packet, echoing both, and runs a
 * DCQCN notification point per flow whose CNPs travel back like ACKs. Each data packet carries the time it was
 * sent and its ACK echoes it (TIMELY). Senders have unlimited data and obey their
 * {@link RateController}: rate, window and timers. Deterministic (seeded marking, ordered ties).
 */
final class BottleneckHarness {

    static final int PAYLOAD = 1000;
    static final int WIRE = 1048;

    private static final int SEND = 0;
    private static final int ARRIVE_SWITCH = 1;
    private static final int SWITCH_DONE = 2;
    private static final int ARRIVE_RECEIVER = 3;
    private static final int ACK = 4;
    private static final int CNP = 5;
    private static final int TIMER = 6;

    private record Ev(long t, long order, int type, int flow, long a, long b, long c, long d, long e, boolean ecn,
            long ts) {
    }

    private final PriorityQueue<Ev> events = new PriorityQueue<>((x, y) -> x.t != y.t ? Long.compare(x.t, y.t)
            : Long.compare(x.order, y.order));
    private long order;
    private long now;

    final int n;
    final long lineBps;
    final long bottleneckBps;
    final long propPs;
    final long kmin;
    final long kmax;
    final double pmax;
    private final Random random = new Random(1);

    final RateController[] cc;
    private final long[][] timerGen;
    private final long[] sndNxt;
    private final long[] sndUna;
    private final long[] startPs;
    private final boolean[] sendPending;
    private final long[] sendGen;
    private final long[] sendAt;
    private final long[] nicFree;
    private final DcqcnNotificationPoint[] np;
    private final long[] rcvNext;
    final long[] deliveredBytes;

    private final ArrayDeque<long[]> queue = new ArrayDeque<>();
    private long queueBytes;
    private boolean busy;
    private long txBytes;
    long maxQueueAfter;
    long maxQueueAfterPs = Long.MAX_VALUE;
    long marks;
    long cnps;

    /**
     * @param n senders
     * @param lineBps NIC and bottleneck rate
     * @param propPs propagation delay of each of the three hops (sender-switch, switch-receiver, and the return)
     * @param kmin RED kmin bytes
     * @param kmax RED kmax bytes
     * @param pmax RED pmax
     * @param cnpIntervalPs notification point interval
     * @param make makes flow i's controller given its timers
     */
    BottleneckHarness(int n, long lineBps, long propPs, long kmin, long kmax, double pmax, long cnpIntervalPs,
            java.util.function.BiFunction<Integer, CcTimers, RateController> make) {
        this.n = n;
        this.lineBps = lineBps;
        this.bottleneckBps = lineBps;
        this.propPs = propPs;
        this.kmin = kmin;
        this.kmax = kmax;
        this.pmax = pmax;
        cc = new RateController[n];
        timerGen = new long[n][8];
        sndNxt = new long[n];
        sndUna = new long[n];
        startPs = new long[n];
        sendPending = new boolean[n];
        sendGen = new long[n];
        sendAt = new long[n];
        nicFree = new long[n];
        np = new DcqcnNotificationPoint[n];
        rcvNext = new long[n];
        deliveredBytes = new long[n];
        for (int i = 0; i < n; i++) {
            final int flow = i;
            cc[i] = make.apply(i, new CcTimers() {
                @Override
                public void schedule(int timerId, long delayPs) {
                    timerGen[flow][timerId]++;
                    push(now + delayPs, TIMER, flow, timerId, timerGen[flow][timerId], 0, 0, 0, false);
                }

                @Override
                public void cancel(int timerId) {
                    timerGen[flow][timerId]++;
                }
            });
            np[i] = new DcqcnNotificationPoint(cnpIntervalPs);
            startPs[i] = Long.MAX_VALUE;
        }
    }

    /**
     * A base RTT for the controllers: the three propagation delays, a data packet's serialisation at the NIC and at
     * the switch and an ACK's, plus one more propagation delay of margin (an upper estimate, as HPCC's maxRtt is for
     * all but its longest paths).
     */
    long baseRttPs() {
        return 3 * propPs + 2 * RateController.txTimePs(WIRE, lineBps) + RateController.txTimePs(64, lineBps) + propPs;
    }

    void start(int flow, long t) {
        startPs[flow] = t;
        push(t, SEND, flow, 1, 0, 0, 0, 0, false);
    }

    private void push(long t, int type, int flow, long a, long b, long c, long d, long e, boolean ecn) {
        push(t, type, flow, a, b, c, d, e, ecn, -1);
    }

    /** {@code ts}: a data packet's send time, and on its ACK the echo of it (TIMELY). */
    private void push(long t, int type, int flow, long a, long b, long c, long d, long e, boolean ecn, long ts) {
        events.add(new Ev(t, order++, type, flow, a, b, c, d, e, ecn, ts));
    }

    long queueBytes() {
        return queueBytes;
    }

    long now() {
        return now;
    }

    /** Runs until t, calling the sampler every samplePs. */
    void runUntil(long t, long samplePs, IntFunction<Void> sampler) {
        long nextSample = now + samplePs;
        while (!events.isEmpty() && events.peek().t <= t) {
            Ev ev = events.poll();
            while (sampler != null && nextSample <= ev.t) {
                now = nextSample;
                sampler.apply(0);
                nextSample += samplePs;
            }
            now = ev.t;
            handle(ev);
        }
        while (sampler != null && nextSample <= t) {
            now = nextSample;
            sampler.apply(0);
            nextSample += samplePs;
        }
        now = t;
    }

    private void handle(Ev ev) {
        int f = ev.flow;
        switch (ev.type) {
            case SEND -> {
                if (ev.a == 1) {
                    cc[f].start(now);
                } else if (ev.b != sendGen[f]) {
                    return; // superseded by an earlier send time
                }
                sendPending[f] = false;
                trySend(f);
            }
            case ARRIVE_SWITCH -> {
                queue.add(new long[] {f, ev.a, ev.b, ev.ts});
                queueBytes += ev.b;
                if (now >= maxQueueAfterPs) {
                    maxQueueAfter = Math.max(maxQueueAfter, queueBytes);
                }
                if (!busy) {
                    startTx();
                }
            }
            case SWITCH_DONE -> {
                busy = false;
                if (!queue.isEmpty()) {
                    startTx();
                }
            }
            case ARRIVE_RECEIVER -> {
                long seqEnd = ev.a;
                rcvNext[f] = Math.max(rcvNext[f], seqEnd);
                deliveredBytes[f] += PAYLOAD;
                if (ev.ecn && np[f].onMarkedPacket(now)) {
                    cnps++;
                    push(now + propPs + RateController.txTimePs(64, lineBps), CNP, f, 0, 0, 0, 0, 0, false);
                }
                push(now + propPs + RateController.txTimePs(64, lineBps), ACK, f, rcvNext[f], ev.b, ev.c, ev.d,
                        ev.e, ev.ecn, ev.ts);
            }
            case ACK -> {
                sndUna[f] = Math.max(sndUna[f], ev.a);
                hops.clear();
                hops.add(ev.b, ev.c, ev.d, ev.e);
                cc[f].onAck(now, ev.a, sndNxt[f], ev.ecn, hops, ev.ts);
                trySend(f);
            }
            case CNP -> {
                cc[f].onCnp(now);
                trySend(f);
            }
            case TIMER -> {
                if (timerGen[f][(int) ev.a] == ev.b) {
                    cc[f].onTimer(now, (int) ev.a);
                    trySend(f);
                }
            }
            default -> throw new IllegalStateException();
        }
    }

    private final IntHops hops = new IntHops();

    private void trySend(int f) {
        if (now < startPs[f]) {
            return;
        }
        if (sendPending[f]) {
            long at = Math.max(cc[f].nextSendTimePs(), nicFree[f]);
            if (at < sendAt[f]) {
                scheduleSend(f, Math.max(at, now));
            }
            return;
        }
        if (sndNxt[f] - sndUna[f] >= cc[f].windowBytes()) {
            return; // an ACK will call again
        }
        long at = Math.max(cc[f].nextSendTimePs(), nicFree[f]);
        if (at > now) {
            scheduleSend(f, at);
            return;
        }
        cc[f].onPacketSent(now, WIRE);
        sndNxt[f] += PAYLOAD;
        long tx = RateController.txTimePs(WIRE, lineBps);
        nicFree[f] = now + tx;
        push(now + tx + propPs, ARRIVE_SWITCH, f, sndNxt[f], WIRE, 0, 0, 0, false, now);
        scheduleSend(f, Math.max(cc[f].nextSendTimePs(), nicFree[f]));
    }

    private void scheduleSend(int f, long at) {
        sendPending[f] = true;
        sendAt[f] = at;
        sendGen[f]++;
        push(at, SEND, f, 0, sendGen[f], 0, 0, 0, false);
    }

    private void startTx() {
        long[] p = queue.poll();
        queueBytes -= p[2];
        busy = true;
        boolean ecn = false;
        if (queueBytes > kmax) {
            ecn = true;
        } else if (queueBytes > kmin) {
            ecn = random.nextDouble() < pmax * (queueBytes - kmin) / (kmax - kmin);
        }
        if (ecn) {
            marks++;
        }
        txBytes += p[2];
        long tx = RateController.txTimePs(p[2], bottleneckBps);
        push(now + tx, SWITCH_DONE, -1, 0, 0, 0, 0, 0, false);
        push(now + tx + propPs, ARRIVE_RECEIVER, (int) p[0], p[1], queueBytes, txBytes, now, bottleneckBps, ecn, p[3]);
    }
}

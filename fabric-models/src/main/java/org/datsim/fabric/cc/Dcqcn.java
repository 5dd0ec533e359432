package org.datsim.fabric.cc;

/**
 * DCQCN's reaction point (Zhu et al., SIGCOMM 2015) as HPCC's simulator implements it, "Mellanox's version"
 * ({@code rdma-hw.cc}: {@code cnp_received_mlx}, {@code UpdateAlphaMlx}, {@code CheckRateDecreaseMlx},
 * {@code RateIncEventTimerMlx}):
 * <ul>
 * <li>a CNP only sets flags; the first CNP starts the alpha timer (every {@code alpha_interval}) and the
 * rate-decrease check (every {@code rate_decrease_interval}, 1 ns after the alpha timer);</li>
 * <li>alpha timer: alpha = (1-g) alpha + g if a CNP arrived in the interval, else (1-g) alpha;</li>
 * <li>rate-decrease check: if a CNP arrived since the last check, target = rate (unless
 * {@code clamp_target_rate} is false and no increase happened since the last cut), rate = max(min_rate,
 * rate (1 - alpha/2)), the increase stages restart and the rate-increase timer is (re)armed;</li>
 * <li>rate-increase timer (every {@code rp_timer}): stage below F: fast recovery, rate = (rate + target)/2; stage
 * F: additive increase, target += rate_ai; above F: hyper increase, target += rate_hai (target at most line rate),
 * then rate = (rate + target)/2 and the stage counts up.</li>
 * </ul>
 * With {@code byte_counter} above 0 the paper's byte counter also drives increase events, one per that many bytes
 * sent after the first cut; the stage is then fast recovery while both counters are below F, hyper increase once
 * both exceed F, additive otherwise (the paper's rule). HPCC's simulator has no byte counter (0). Rates are whole
 * bits per second, halved and scaled with truncation, as ns-3's DataRate arithmetic does.
 */
public final class Dcqcn extends RateController {

    /** Timer id of the alpha update. */
    public static final int TIMER_ALPHA = 0;
    /** Timer id of the rate-decrease check. */
    public static final int TIMER_RATE_DECREASE = 1;
    /** Timer id of the rate-increase timer. */
    public static final int TIMER_RATE_INCREASE = 2;

    /** The 1 ns HPCC adds to the first rate-decrease check so that it follows the alpha update. */
    static final long DECREASE_OFFSET_PS = 1_000;

    /**
     * DCQCN's parameters (see {@link CcParams}).
     *
     * @param minRateBps cc.min_rate
     * @param alphaIntervalPs cc.dcqcn.alpha_interval
     * @param rateDecreaseIntervalPs cc.dcqcn.rate_decrease_interval
     * @param rpTimerPs cc.dcqcn.rp_timer
     * @param g the alpha gain, 1 / cc.dcqcn.g_denominator
     * @param fastRecoveryTimes cc.dcqcn.fast_recovery_times (F)
     * @param rateAiBps cc.dcqcn.rate_ai
     * @param rateHaiBps cc.dcqcn.rate_hai
     * @param clampTargetRate cc.dcqcn.clamp_target_rate
     * @param byteCounterBytes cc.dcqcn.byte_counter, 0 for none
     */
    public record Config(long minRateBps, long alphaIntervalPs, long rateDecreaseIntervalPs, long rpTimerPs, double g,
            int fastRecoveryTimes, long rateAiBps, long rateHaiBps, boolean clampTargetRate, long byteCounterBytes) {
        /** Checks the values are usable. */
        public Config {
            if (alphaIntervalPs <= 0 || rateDecreaseIntervalPs <= 0 || rpTimerPs <= 0) {
                throw new IllegalArgumentException("DCQCN intervals must be positive");
            }
            if (!(g > 0 && g <= 1)) {
                throw new IllegalArgumentException("DCQCN g must be in (0, 1]: " + g);
            }
            if (minRateBps <= 0 || fastRecoveryTimes < 0 || rateAiBps < 0 || rateHaiBps < 0 || byteCounterBytes < 0) {
                throw new IllegalArgumentException("bad DCQCN parameters");
            }
        }
    }

    private final Config c;
    private final CcTimers timers;
    private long targetRateBps;
    private double alpha = 1;
    private boolean alphaCnpArrived;
    private boolean decreaseCnpArrived;
    private boolean firstCnp = true;
    private boolean increasing;
    private int timeStage;
    private int byteStage;
    private long bytesSinceStage;

    /**
     * @param lineRateBps the NIC's line rate
     * @param config the parameters
     * @param timers the owner's timers (ids {@link #TIMER_ALPHA}, {@link #TIMER_RATE_DECREASE},
     *        {@link #TIMER_RATE_INCREASE})
     */
    public Dcqcn(long lineRateBps, Config config, CcTimers timers) {
        super(lineRateBps);
        this.c = config;
        this.timers = timers;
        this.targetRateBps = lineRateBps;
        if (config.minRateBps() > lineRateBps) {
            throw new IllegalArgumentException("DCQCN min rate above the line rate");
        }
    }

    @Override
    public int timerCount() {
        return 3;
    }

    /** Returns alpha, the estimate of the congestion extent. */
    public double alpha() {
        return alpha;
    }

    /** Returns the target rate in bits per second. */
    public long targetRateBps() {
        return targetRateBps;
    }

    /** Returns the timer stage: rate-increase timer expiries since the last cut. */
    public int timeStage() {
        return timeStage;
    }

    /** Returns the byte-counter stage: byte-counter expiries since the last cut. */
    public int byteStage() {
        return byteStage;
    }

    @Override
    public void onCnp(long nowPs) {
        alphaCnpArrived = true;
        decreaseCnpArrived = true;
        if (firstCnp) {
            alpha = 1;
            alphaCnpArrived = false;
            timers.schedule(TIMER_ALPHA, c.alphaIntervalPs());
            timers.schedule(TIMER_RATE_DECREASE, c.rateDecreaseIntervalPs() + DECREASE_OFFSET_PS);
            // HPCC's RateOnFirstCnp is 1.0: the target starts at the current rate
            targetRateBps = rateBps;
            firstCnp = false;
        }
    }

    @Override
    public void onTimer(long nowPs, int timerId) {
        switch (timerId) {
            case TIMER_ALPHA -> updateAlpha();
            case TIMER_RATE_DECREASE -> checkRateDecrease();
            case TIMER_RATE_INCREASE -> {
                timers.schedule(TIMER_RATE_INCREASE, c.rpTimerPs());
                increase();
                timeStage++;
            }
            default -> throw new IllegalArgumentException("DCQCN has no timer " + timerId);
        }
    }

    private void updateAlpha() {
        alpha = alphaCnpArrived ? (1 - c.g()) * alpha + c.g() : (1 - c.g()) * alpha;
        alphaCnpArrived = false;
        timers.schedule(TIMER_ALPHA, c.alphaIntervalPs());
    }

    private void checkRateDecrease() {
        timers.schedule(TIMER_RATE_DECREASE, c.rateDecreaseIntervalPs());
        if (!decreaseCnpArrived) {
            return;
        }
        if (c.clampTargetRate() || timeStage != 0) {
            targetRateBps = rateBps;
        }
        rateBps = Math.max(c.minRateBps(), (long) (rateBps * (1 - alpha / 2)));
        timeStage = 0;
        byteStage = 0;
        bytesSinceStage = 0;
        decreaseCnpArrived = false;
        increasing = true;
        timers.schedule(TIMER_RATE_INCREASE, c.rpTimerPs());
    }

    @Override
    protected void bytesSent(long nowPs, int wireBytes) {
        if (!increasing || c.byteCounterBytes() == 0) {
            return;
        }
        bytesSinceStage += wireBytes;
        while (bytesSinceStage >= c.byteCounterBytes()) {
            bytesSinceStage -= c.byteCounterBytes();
            increase();
            byteStage++;
        }
    }

    private void increase() {
        int f = c.fastRecoveryTimes();
        int hi;
        int lo;
        if (c.byteCounterBytes() == 0) {
            hi = timeStage;
            lo = timeStage;
        } else {
            hi = Math.max(timeStage, byteStage);
            lo = Math.min(timeStage, byteStage);
        }
        if (hi < f) {
            // fast recovery
        } else if (lo > f) {
            targetRateBps = Math.min(lineRateBps, targetRateBps + c.rateHaiBps());
        } else {
            targetRateBps = Math.min(lineRateBps, targetRateBps + c.rateAiBps());
        }
        rateBps = rateBps / 2 + targetRateBps / 2;
    }

    @Override
    public void stop() {
        timers.cancel(TIMER_ALPHA);
        timers.cancel(TIMER_RATE_DECREASE);
        timers.cancel(TIMER_RATE_INCREASE);
    }
}

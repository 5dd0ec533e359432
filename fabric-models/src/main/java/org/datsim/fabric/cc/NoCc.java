package org.datsim.fabric.cc;

/** {@code cc.algorithm = none}: every queue pair sends at line rate, with no window. */
public final class NoCc extends RateController {

    /**
     * @param lineRateBps the NIC's line rate
     */
    public NoCc(long lineRateBps) {
        super(lineRateBps);
    }
}

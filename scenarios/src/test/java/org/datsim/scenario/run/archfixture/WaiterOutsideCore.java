package org.datsim.scenario.run.archfixture;

import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.Evd;

/** Breaks a consumer core rule on purpose (for ConsumerCoreTest): a wait registered outside the core. */
public final class WaiterOutsideCore {
    void block(DatProvider dat, Evd evd, Runnable wake) {
        dat.evdSetWaiter(evd, wake);
    }
}

package org.datsim.scenario.cli;

import org.datsim.scenario.run.Observations;

/** Test access to how explore prints named observations. */
public final class ExploreCommandAccess {

    private ExploreCommandAccess() {
    }

    /** See {@code ExploreCommand.describe}. */
    public static String describe(Observations named) {
        return ExploreCommand.describe(named);
    }
}

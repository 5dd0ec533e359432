package org.datsim.core.archfixture;

import org.datsim.core.engine.Simulator;

/** Keeps every layering rule (for LayeringRulesFailTest): a sim-core package that uses sim-core only. */
public final class CoreUsingOnlyCore {
    Simulator sim;
}

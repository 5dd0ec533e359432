package org.datsim.core.archfixture;

import org.datsim.fabric.Fabric;

/** Breaks a layering rule on purpose (for LayeringRulesFailTest): a sim-core package that uses fabric-models. */
public final class CoreUsingFabric {
    Fabric fabric;
}

package org.datsim.viz.archfixture;

import org.datsim.fabric.Fabric;

/** Breaks a layering rule on purpose (for LayeringRulesFailTest): viz using the fabric models. */
public final class VizUsingFabric {
    Fabric fabric;
}

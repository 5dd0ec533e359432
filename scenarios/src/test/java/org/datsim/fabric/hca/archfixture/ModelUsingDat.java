package org.datsim.fabric.hca.archfixture;

import org.datsim.fabric.dat.DatProvider;

/** Breaks a layering rule on purpose (for LayeringRulesFailTest): a fabric model that uses the DAT provider. */
public final class ModelUsingDat {
    DatProvider provider;
}

package org.datsim.fabric.hca.archfixture;

import org.datsim.fabric.dat.Dat;

/**
 * Names the DAT layer through a compile-time constant only (for LayeringRulesFailTest): javac inlines it, so the
 * bytecode keeps no trace of Dat and only the source check sees it.
 */
public final class ModelUsingDatConstant {
    int status = Dat.DTO_SUCCESS;
}

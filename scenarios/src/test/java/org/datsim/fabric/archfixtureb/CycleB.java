package org.datsim.fabric.archfixtureb;

import org.datsim.fabric.archfixturea.CycleA;

/** With CycleA, a package cycle inside fabric on purpose (for LayeringRulesFailTest). */
public final class CycleB {
    CycleA a;
}

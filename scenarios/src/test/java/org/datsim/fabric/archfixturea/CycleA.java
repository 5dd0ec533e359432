package org.datsim.fabric.archfixturea;

import org.datsim.fabric.archfixtureb.CycleB;

/** With CycleB, a package cycle inside fabric on purpose (for LayeringRulesFailTest). */
public final class CycleA {
    CycleB b;
}

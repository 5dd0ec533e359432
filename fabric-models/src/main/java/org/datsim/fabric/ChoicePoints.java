package org.datsim.fabric;

import java.util.List;
import org.datsim.core.choice.ChoicePoint;
import org.datsim.fabric.hca.HcaChoices;
import org.datsim.fabric.memory.HostMemory;

/**
 * Every choice point of the models, in one list (for {@code datsim explore} and the docs): the places where the
 * DAT rules allow more than one order and the timing model makes one of them.
 */
public final class ChoicePoints {

    private ChoicePoints() {
    }

    /** Returns every choice point, in a fixed order. */
    public static List<ChoicePoint> all() {
        return List.of(HcaChoices.READ_FETCH, HcaChoices.PAYLOAD_FETCH, HcaChoices.WRITE_ORDER,
                HcaChoices.READ_WRITE_RACE, HostMemory.CPU_LINE, HostMemory.IO_LINE,
                HostMemory.CPU_WRITEBACK,
                org.datsim.fabric.dat.DatChoices.EVD_ORDER, org.datsim.fabric.dat.DatChoices.REAP_ORDER,
                org.datsim.fabric.dat.DatChoices.SRQ_ORDER, org.datsim.fabric.dat.DatChoices.LATE_ARRIVAL,
                org.datsim.fabric.dat.DatChoices.DISCONNECT_ORDER,
                org.datsim.fabric.dat.DatChoices.WAIT_TIMEOUT);
    }
}

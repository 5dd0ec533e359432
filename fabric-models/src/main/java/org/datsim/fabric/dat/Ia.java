package org.datsim.fabric.dat;

import java.util.ArrayList;
import java.util.List;

/** An open interface adapter: one consumer's open instance of a host's HCA port. */
public final class Ia extends DatHandle {

    final DatHost host;
    final String iaName;
    Evd asyncEvd;
    final List<DatHandle> children = new ArrayList<>();

    Ia(DatHost host, String iaName, String name) {
        super(TYPE_IA, name, null);
        this.host = host;
        this.iaName = iaName;
    }

    /** Returns the name the IA was opened by, for example "ofa-v2-ib0". */
    public String iaName() {
        return iaName;
    }

    /** Returns the IA's asynchronous-event EVD. */
    public Evd asyncEvd() {
        return asyncEvd;
    }

    /** Returns the host the IA lives on. */
    public DatHost host() {
        return host;
    }

    int liveChildren() {
        int n = 0;
        for (DatHandle h : children) {
            if (!h.freed && h != asyncEvd) {
                n++;
            }
        }
        return n;
    }
}

package org.datsim.scenario.run;

import java.util.Map;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.Ia;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.dat.Psp;
import org.datsim.fabric.dat.Rmr;

/**
 * The fields of named values, as references name them ({@code $buf.rmr_context}, {@code $event.cookie}): the
 * loader has checked that each field exists for the kind of value named (see {@code Refs.FIELDS}).
 */
final class Fields {

    private Fields() {
    }

    /** Returns a field of a bound value, or null if it has none. */
    static Object of(Object v, String field) {
        if (v instanceof Ia) {
            return ((Ia) v).asyncEvd();
        }
        if (v instanceof Psp) {
            return ((Psp) v).connQual();
        }
        if (v instanceof Lmr) {
            Lmr l = (Lmr) v;
            switch (field) {
                case "lmr_context":
                    return (long) l.lmrContext() & 0xffffffffL;
                case "rmr_context":
                    return (long) l.rmrContext() & 0xffffffffL;
                case "address":
                    return l.address();
                default:
                    return l.length();
            }
        }
        if (v instanceof Rmr) {
            Rmr r = (Rmr) v;
            switch (field) {
                case "rmr_context":
                    return (long) r.context() & 0xffffffffL;
                case "address":
                    return r.requestedAddress();
                default:
                    return r.requestedLength();
            }
        }
        if (v instanceof DtoCalls.BindResult) {
            DtoCalls.BindResult b = (DtoCalls.BindResult) v;
            switch (field) {
                case "rmr_context":
                    return b.context();
                case "address":
                    return b.address();
                case "length":
                    return b.length();
                default:
                    return b.op();
            }
        }
        if (v instanceof DatEvent) {
            DatEvent e = (DatEvent) v;
            switch (field) {
                case "cr":
                    return e.cr;
                case "rmr":
                    return e.rmr;
                case "ep":
                    return e.ep;
                case "cookie":
                    return e.cookie;
                case "status":
                    return (long) e.status;
                case "transfered_length":
                    return e.transferredLength;
                case "operation":
                    return (long) e.operation;
                default:
                    return (long) e.number;
            }
        }
        if (v instanceof Integer) {
            return ((Integer) v).longValue();
        }
        if (v instanceof Map) {
            return ((Map<?, ?>) v).get(field);
        }
        return null;
    }
}

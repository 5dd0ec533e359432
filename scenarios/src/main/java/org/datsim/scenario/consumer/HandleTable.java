package org.datsim.scenario.consumer;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.fabric.dat.DatHandle;

/**
 * A consumer's DAT handles by number, as a program outside the simulator holds them: the bridge gives each object a
 * program sees a small id the first time it crosses the wire (id 0 is DAT_HANDLE_NULL) and looks it up again when
 * the program passes it back. The handles of a program are shared by all its threads. Ids are never reused, so an
 * id names the same object for the whole run (a recording refers to objects by the id they first had).
 */
public final class HandleTable {

    private final List<DatHandle> byId = new ArrayList<>();
    private final Map<DatHandle, Integer> ids = new IdentityHashMap<>();

    /** An empty table: only DAT_HANDLE_NULL (id 0). */
    public HandleTable() {
        byId.add(null);
    }

    /**
     * Returns the id of a handle, giving it the next one the first time.
     *
     * @param h the handle, or null
     * @return its id, 0 for null
     */
    public int id(DatHandle h) {
        if (h == null) {
            return 0;
        }
        Integer i = ids.get(h);
        if (i == null) {
            i = byId.size();
            byId.add(h);
            ids.put(h, i);
        }
        return i;
    }

    /**
     * Returns the handle of an id if it is of the type asked.
     *
     * @param id the id the program passed
     * @param type the handle type the call takes
     * @param <T> that type
     * @return the handle, or null when the id is 0, unknown, or names another type of object (the call then
     *     answers DAT_INVALID_HANDLE, as a provider does)
     */
    public <T extends DatHandle> T get(int id, Class<T> type) {
        DatHandle d = get(id);
        return type.isInstance(d) ? type.cast(d) : null;
    }

    /**
     * Returns the handle of an id, whatever its type.
     *
     * @param id the id
     * @return the handle, or null when the id is 0 or unknown
     */
    public DatHandle get(int id) {
        return id > 0 && id < byId.size() ? byId.get(id) : null;
    }

    /**
     * Returns how many ids there are, DAT_HANDLE_NULL's included: the next handle's id.
     *
     * @return the count
     */
    public int size() {
        return byId.size();
    }
}

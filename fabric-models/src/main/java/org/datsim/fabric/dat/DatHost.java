package org.datsim.fabric.dat;

import java.util.TreeMap;
import org.datsim.fabric.hca.Hca;
import org.datsim.fabric.memory.HostMemory;

/**
 * The provider's per-host state: the host's HCA and memory, the IA name its port is registered under, the
 * registered memory by context, the service points by connection qualifier, and counters for object names.
 */
public final class DatHost {

    /** The IA name every host's single HCA port is registered under, as in OFA's dat.conf. */
    public static final String DEFAULT_IA_NAME = "ofa-v2-ib0";

    final String name;
    final int id;
    final Hca hca;
    final HostMemory memory;
    final TreeMap<Integer, Lmr> byLmrContext = new TreeMap<>();
    final TreeMap<Integer, Lmr> byRmrContext = new TreeMap<>();
    final TreeMap<Long, Psp> psps = new TreeMap<>();
    final TreeMap<Long, Rsp> rsps = new TreeMap<>();
    /** The dynamic registry: the IA names registered by providers. */
    final java.util.TreeSet<String> registered = new java.util.TreeSet<>();
    /** The IAs opened on this host, in opening order. */
    final java.util.List<Ia> ias = new java.util.ArrayList<>();
    final TreeMap<Integer, Rmr> rmrByContext = new TreeMap<>();
    private int nextContext = 0x100;
    private final TreeMap<String, Integer> counters = new TreeMap<>();
    /** Every object name given on this host (membership only), so that no two objects share one. */
    private final java.util.HashSet<String> names = new java.util.HashSet<>();
    /** The name the next object created on this host takes, or null for a numbered one ("A/ep2"). */
    private String pendingName;

    DatHost(String name, int id, Hca hca, HostMemory memory) {
        this.name = name;
        this.id = id;
        this.hca = hca;
        this.memory = memory;
    }

    /** Returns the host's name. */
    public String name() {
        return name;
    }

    /** Returns the host's id on the fabric. */
    public int id() {
        return id;
    }

    /** Returns the host's memory. */
    public HostMemory memory() {
        return memory;
    }

    /** Returns the host's HCA. */
    public Hca hca() {
        return hca;
    }

    /**
     * Names the next object created on this host, for example with the name a scenario binds it to ("ep[2]" gives
     * "A/ep[2]"); null goes back to numbered names. A name already taken on the host gets "#2", "#3", ... after it.
     *
     * @param objectName the name without the host, or null
     */
    public void nameNextObject(String objectName) {
        pendingName = objectName;
    }

    /** Returns the next object name of a kind on this host: the name given, or for example "A/ep2". */
    String nextName(String kind) {
        if (pendingName != null) {
            String base = name + "/" + pendingName;
            pendingName = null;
            if (names.add(base)) {
                return base;
            }
            int k = counters.getOrDefault("#" + base, 1);
            String given;
            do {
                k++;
                given = base + "#" + k;
            } while (!names.add(given));
            counters.put("#" + base, k);
            return given;
        }
        String given;
        do {
            given = name + "/" + kind + counters.merge(kind, 1, Integer::sum);
        } while (!names.add(given));
        return given;
    }

    /** Returns a fresh 32-bit memory context (index in the high bits, a key byte in the low bits, as IB keys). */
    int nextContext() {
        int index = nextContext++;
        return (index << 8) | ((index * 0x9d + id * 0x3b) & 0xff);
    }
}

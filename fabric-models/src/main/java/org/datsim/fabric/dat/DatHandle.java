package org.datsim.fabric.dat;

/**
 * The common part of every DAT object: its handle type, the name it has in traces, its IA, whether it has been
 * freed, and the consumer context (dat_set_consumer_context).
 */
public abstract class DatHandle {

    /** DAT_HANDLE_TYPE_CR. */
    public static final int TYPE_CR = 0;
    /** DAT_HANDLE_TYPE_EP. */
    public static final int TYPE_EP = 1;
    /** DAT_HANDLE_TYPE_EVD. */
    public static final int TYPE_EVD = 2;
    /** DAT_HANDLE_TYPE_IA. */
    public static final int TYPE_IA = 3;
    /** DAT_HANDLE_TYPE_LMR. */
    public static final int TYPE_LMR = 4;
    /** DAT_HANDLE_TYPE_PSP. */
    public static final int TYPE_PSP = 5;
    /** DAT_HANDLE_TYPE_PZ. */
    public static final int TYPE_PZ = 6;
    /** DAT_HANDLE_TYPE_RMR. */
    public static final int TYPE_RMR = 7;
    /** DAT_HANDLE_TYPE_RSP. */
    public static final int TYPE_RSP = 8;
    /** DAT_HANDLE_TYPE_CNO. */
    public static final int TYPE_CNO = 9;
    /** DAT_HANDLE_TYPE_SRQ. */
    public static final int TYPE_SRQ = 10;

    private final int type;
    private final String name;
    final Ia ia;
    boolean freed;
    long consumerContext;

    DatHandle(int type, String name, Ia ia) {
        this.type = type;
        this.name = name;
        this.ia = ia;
    }

    /** Returns the DAT_HANDLE_TYPE value. */
    public final int handleType() {
        return type;
    }

    /** Returns the object's name in traces, for example "A/ep1". */
    public final String name() {
        return name;
    }

    /** Returns true once the object has been freed; its handle is then invalid. */
    public final boolean isFreed() {
        return freed;
    }

    @Override
    public String toString() {
        return name;
    }
}

package org.datsim.fabric.sw.archfixture;

/** Fixture for {@code NoSharedStateTest}: a model counting in a static field, shared by every simulation. */
public final class CountsInAStatic {

    /** Shared by every instance in the JVM: what partitions on threads must not have. */
    static long forwarded;

    /** A constant is fine. */
    static final int LIMIT = 4;

    void forward() {
        if (forwarded < LIMIT) {
            forwarded++;
        }
    }
}

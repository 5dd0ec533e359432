package org.datsim.fabric.dat;

/**
 * An output parameter of a DAT call (the C API's pointer arguments). It holds a value only when the call returned
 * DAT_SUCCESS.
 *
 * @param <T> the type of the value
 */
public final class Out<T> {

    /** The value, or null. */
    public T value;

    /** Returns the value, or null if the call did not set it. */
    public T get() {
        return value;
    }
}

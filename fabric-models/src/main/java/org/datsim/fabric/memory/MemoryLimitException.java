package org.datsim.fabric.memory;

/** Thrown when simulated memory would grow past its configured resident bound. */
public final class MemoryLimitException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what limit was hit and how to raise it
     */
    public MemoryLimitException(String message) {
        super(message);
    }
}

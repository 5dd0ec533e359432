package org.datsim.scenario.run;

/**
 * Thrown when a call cannot be made because a value it names was never bound (or is not a number where one is
 * needed); the interpreter reports it as a failed expectation of the step and goes on.
 */
final class Unbound extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unbound(String message) {
        super(message, null, false, false);
    }
}

package org.datsim.scenario.run;

/** The words for a run that needed more memory than the JVM was given (an OutOfMemoryError that a limit missed). */
public final class OutOfMemory {

    /** What the user is told, with how to give the JVM more. */
    public static final String MESSAGE = "datsim needs more memory than the JVM has (" + (Runtime.getRuntime()
            .maxMemory() >> 20) + " MiB of heap); run with DATSIM_JAVA_OPTS=-Xmx8g (or more) in the environment,"
            + " or make the scenario smaller";

    private OutOfMemory() {
    }
}

package org.datsim.scenario.lab;

import java.util.List;

/** A lesson that cannot be used: each problem names the file and, where it applies, the JSON path. */
public final class LabException extends Exception {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    /**
     * Creates the exception.
     *
     * @param problems one message per problem
     */
    public LabException(List<String> problems) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** Returns one message per problem. */
    public List<String> problems() {
        return problems;
    }
}

package org.datsim.scenario.load;

import java.util.List;

/** A scenario file that cannot be run, with one message per problem found. */
public final class ScenarioException extends Exception {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    /**
     * Creates the exception.
     *
     * @param problems the messages, each naming the file and the JSON path or line and column
     */
    public ScenarioException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    /** Returns the messages, one per problem. */
    public List<String> problems() {
        return problems;
    }
}

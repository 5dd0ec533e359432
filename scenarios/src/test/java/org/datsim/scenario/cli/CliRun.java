package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/**
 * One in-process run of the command line, as the CLI tests make it: its exit code, standard output and standard
 * error.
 *
 * @param code the exit code
 * @param out what it printed on standard output
 * @param err what it printed on standard error
 */
record CliRun(int code, String out, String err) {

    /** Runs {@code datsim ARGS...} in this process. */
    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code;
        try (PrintWriter o = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
            code = DatsimCli.execute(args, o, e);
        }
        return new CliRun(code, out.toString(), err.toString());
    }

    /** Everything, for an assertion's message. */
    String all() {
        return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }

    /** Standard output's lines. */
    List<String> outLines() {
        return out.lines().toList();
    }
}

package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.datsim.fabric.FabricPresets;
import org.datsim.scenario.calibrate.Calibration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code datsim calibrate}: runs the perftest-style scenarios of a preset over message sizes and prints the curves
 * as a Markdown table (test, size, model, target, verdict). Exits 1 if a published target is missed.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = "Print perftest-style curves (ib_send_lat, ib_write_lat, ib_read_lat, ib_write_bw) of a"
                + " preset over 2 B..1 MiB, with the published targets where known; exit 1 if one is missed.")
public final class CalibrateCommand implements Callable<Integer> {

    @Option(names = "--preset", paramLabel = "NAME", defaultValue = "ib-edr", description = "The preset (default:"
            + " ${DEFAULT-VALUE}).")
    String preset;

    @Option(names = "--test", paramLabel = "TEST", split = ",", description = "Only these tests (comma-separated).")
    List<String> tests;

    @Option(names = "--sizes", paramLabel = "BYTES", split = ",", description = "Only these sizes in bytes.")
    List<Long> sizes;

    @Option(names = "--param", paramLabel = "NAME=VALUE", description = "Override a parameter of the preset"
            + " (repeatable), for what-if curves.")
    java.util.Map<String, String> params = new java.util.LinkedHashMap<>();

    @Option(names = "--emit", description = "Print the scenario of the one test and size given (--test, --sizes)"
            + " instead of running it.")
    boolean emit;

    @Option(names = "--targets", description = "Instead of the curves: measure every published target of"
            + " calibration/targets.csv (all presets; docs/calibration.md gives the sources) with datsim perftest"
            + " and print target, model figure and error. A report: it exits 0 whatever the errors.")
    boolean targets;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (targets) {
            reportTargets(o);
            return 0;
        }
        if (FabricPresets.get(preset) == null) {
            err.println("datsim: no preset is named \"" + preset + "\"; the presets are " + FabricPresets.names());
            return DatsimCli.EXIT_INVALID;
        }
        List<String> t = tests != null ? tests : Calibration.TESTS;
        for (String name : t) {
            if (!Calibration.TESTS.contains(name)) {
                err.println("datsim: unknown test \"" + name + "\"; the tests are " + Calibration.TESTS);
                return DatsimCli.EXIT_INVALID;
            }
        }
        List<Long> s = sizes != null ? sizes : Calibration.SIZES;
        for (long size : s) {
            if (size < 1 || size > (1L << 30)) {
                err.println("datsim: --sizes: expected sizes from 1 to 1073741824 bytes, found " + size);
                return DatsimCli.EXIT_INVALID;
            }
        }
        if (emit) {
            if (t.size() != 1 || s.size() != 1) {
                err.println("datsim: --emit needs exactly one --test and one --sizes value");
                return DatsimCli.EXIT_INVALID;
            }
            try {
                com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
                o.println(m.writerWithDefaultPrettyPrinter().writeValueAsString(m.readTree(
                        Calibration.scenarioJson(preset, t.get(0), s.get(0)))));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
            o.flush();
            return 0;
        }
        StringBuilder extra = new StringBuilder();
        for (java.util.Map.Entry<String, String> e : params.entrySet()) {
            if (!org.datsim.core.param.Params.defaults(org.datsim.fabric.FabricParams.ALL).declares(e.getKey())) {
                err.println("datsim: --param: unknown parameter \"" + e.getKey() + "\" (see datsim params)"
                        + org.datsim.core.param.Suggestions.hint(e.getKey(), org.datsim.core.param.Params
                                .defaults(org.datsim.fabric.FabricParams.ALL).names()));
                return DatsimCli.EXIT_INVALID;
            }
            extra.append(extra.length() == 0 ? "" : ", ").append(quote(e.getKey())).append(": ")
                    .append(quote(e.getValue()));
        }
        o.println("preset " + preset + ": " + FabricPresets.get(preset).description()
                + (params.isEmpty() ? "" : "; overrides " + params));
        o.println();
        o.println("| test | size | model | target | within |");
        o.println("|---|---:|---:|---:|---|");
        List<String> missed = new ArrayList<>();
        List<Calibration.Point> points;
        try {
            points = Calibration.curves(preset, t, s, extra.toString());
        } catch (IllegalArgumentException e) {
            err.println("datsim: --param: " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        }
        for (Calibration.Point p : points) {
            String verdict = "";
            if (p.target() != null) {
                boolean ok = p.target().accepts(p.value());
                verdict = (ok ? "yes" : "NO") + String.format(" (%.0f%%)", p.target().tolerance() * 100);
                if (!ok) {
                    missed.add(p.test() + " " + size(p.size()));
                }
            }
            o.printf("| %s | %s | %s %s | %s | %s |%n", p.test(), size(p.size()), Calibration.fmt(p.value()), p.unit(),
                    p.target() != null ? p.target().text() + " " + p.unit() : "", verdict);
        }
        o.flush();
        if (!missed.isEmpty()) {
            err.println("datsim: targets missed: " + missed);
            return 1;
        }
        return 0;
    }

    /** Prints every published target with the model's figure and its error. */
    static void reportTargets(PrintWriter o) {
        o.println("| target | preset | test | size | MTU | switches | published | model | error | within | trust |");
        o.println("|---|---|---|---:|---:|---:|---:|---:|---:|---|---|");
        for (org.datsim.scenario.calibrate.CalibrationTargets.Target t
                : org.datsim.scenario.calibrate.CalibrationTargets.load()) {
            double m = org.datsim.scenario.calibrate.CalibrationTargets.model(t);
            o.printf(java.util.Locale.ROOT, "| %s | %s | %s %s | %s | %s | %d | %s %s | %s %s | %+.1f%% | %s | %s |%n",
                    t.id(), t.preset(), t.test(), t.metric(), t.size() == 0 ? "-a" : size(t.size()),
                    t.mtu() == 0 ? "preset" : Long.toString(t.mtu()), t.switches(), t.text(), t.unit(),
                    Calibration.fmt(m), t.unit(), 100 * t.error(m),
                    (t.accepts(m) ? "yes" : "no") + String.format(java.util.Locale.ROOT, " (%.0f%%)",
                            100 * t.tolerance()), t.trust());
            o.flush();
        }
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String size(long b) {
        if (b < 0) {
            return "peak";
        }
        if (b >= (1L << 20) && b % (1L << 20) == 0) {
            return (b >> 20) + " MiB";
        }
        if (b >= 1024 && b % 1024 == 0) {
            return (b >> 10) + " KiB";
        }
        return b + " B";
    }
}

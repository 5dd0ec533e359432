package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import org.datsim.core.param.ParamSpec;
import org.datsim.core.param.Params;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.FabricPresets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code datsim presets [NAME]}: lists the fabric presets, or prints every parameter of one (a {@code *} marks the
 * values the preset sets, each with the preset's own note on it; the others are catalogue defaults).
 */
@Command(name = "presets", mixinStandardHelpOptions = true,
        description = "List the fabric presets, or print every parameter of one with its unit and meaning.")
public final class PresetsCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "NAME", description = "A preset to print.")
    String name;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        if (name == null) {
            for (String n : FabricPresets.names()) {
                o.printf("%-10s %s%n", n, FabricPresets.get(n).description());
            }
            return 0;
        }
        FabricPresets.Preset preset = FabricPresets.get(name);
        if (preset == null) {
            spec.commandLine().getErr().println("datsim: no preset is named \"" + name + "\"; the presets are "
                    + FabricPresets.names() + org.datsim.core.param.Suggestions.hint(name, FabricPresets.names()));
            return DatsimCli.EXIT_INVALID;
        }
        o.println("# " + preset.name() + ": " + preset.description());
        o.println("# * = set by the preset, with the preset's own note on the value (what it stands for, its source)"
                + " before the parameter's meaning; other values are the catalogue defaults");
        Params p = preset.params();
        Map<String, String> set = preset.values();
        for (ParamSpec s : FabricParams.ALL) {
            boolean mine = set.containsKey(s.name());
            o.printf("%-26s %-12s %s %-6s %s%n", s.name(), s.format(p.get(s)), mine ? "*" : " ", unit(s),
                    mine ? preset.name() + ": " + preset.note(s.name()) + ". Meaning: " + s.description()
                            : s.description());
        }
        return 0;
    }

    private static String unit(ParamSpec s) {
        switch (s.kind()) {
            case TIME:
                return "time";
            case RATE:
                return "rate";
            case BYTES:
                return "bytes";
            case INT:
                return "count";
            case BOOL:
                return "bool";
            default:
                return "choice";
        }
    }
}

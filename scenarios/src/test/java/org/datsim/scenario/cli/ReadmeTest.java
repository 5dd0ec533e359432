package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The README stays short and true: under 10,000 bytes, every {@code ./datsim COMMAND [SUBCOMMAND]} it shows names a
 * command that exists, every file it names under scenarios/, studies/ or provider/ exists, and every docs/ link
 * resolves.
 */
class ReadmeTest {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    static String readme() throws IOException {
        return Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
    }

    @Test
    void theReadmeIsUnderTenThousandBytes() throws IOException {
        long size = Files.size(ROOT.resolve("README.md"));
        assertTrue(size < 10_000, "README.md is " + size + " bytes; keep it under 10,000 and move detail into docs/");
    }

    @Test
    void everyDatsimCommandInTheReadmeExists() throws IOException {
        TreeSet<String> known = new TreeSet<>();
        for (Class<?> c : DatsimCli.SUBCOMMANDS) {
            known.add(c.getAnnotation(CommandLine.Command.class).name());
        }
        TreeSet<String> nested = new TreeSet<>();
        for (var e : DatsimCli.NESTED.entrySet()) {
            String parent = e.getKey().getAnnotation(CommandLine.Command.class).name();
            for (Class<?> c : e.getValue()) {
                nested.add(parent + " " + c.getAnnotation(CommandLine.Command.class).name());
            }
        }
        Matcher m = Pattern.compile("\\./datsim ([a-z]+)(?: ([a-z]+))?").matcher(readme());
        List<String> bad = new ArrayList<>();
        int seen = 0;
        while (m.find()) {
            seen++;
            String cmd = m.group(1);
            if (!known.contains(cmd)) {
                bad.add(m.group());
                continue;
            }
            boolean hasNested = nested.stream().anyMatch(n -> n.startsWith(cmd + " "));
            if (hasNested && m.group(2) != null && !nested.contains(cmd + " " + m.group(2))) {
                bad.add(m.group());
            }
        }
        assertTrue(seen >= 10, "expected the README's commands, found " + seen);
        assertEquals(List.of(), bad, "README commands that datsim does not have");
    }

    @Test
    void everyFileAndLinkTheReadmeNamesExists() throws IOException {
        Matcher m = Pattern.compile("(?:\\]\\(|`|\\s)((?:docs|scenarios|studies|provider)/[A-Za-z0-9_./-]+"
                + "\\.(?:md|json|py|sh))").matcher(readme());
        List<String> missing = new ArrayList<>();
        int seen = 0;
        while (m.find()) {
            seen++;
            if (!Files.isRegularFile(ROOT.resolve(m.group(1)))) {
                missing.add(m.group(1));
            }
        }
        Matcher row = Pattern.compile("(?m)^\\| `([a-z0-9-]+\\.json)` \\|").matcher(readme());
        while (row.find()) {
            seen++;
            if (!Files.isRegularFile(ROOT.resolve("scenarios/examples").resolve(row.group(1)))) {
                missing.add("scenarios/examples/" + row.group(1));
            }
        }
        assertTrue(seen >= 30, "expected the README's files, links and examples, found " + seen);
        assertEquals(List.of(), missing, "files the README names that do not exist");
    }
}

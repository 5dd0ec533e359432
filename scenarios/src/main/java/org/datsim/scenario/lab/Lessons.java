package org.datsim.scenario.lab;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Finds the lessons: the directories {@code NN-name/} of the lab directory, in number order. */
public final class Lessons {

    private static final Pattern NAME = Pattern.compile("(\\d{1,3})-[A-Za-z0-9_.-]+");

    private Lessons() {
    }

    /**
     * Returns the lab directory: {@code scenarios/lab} of the source tree the running jar (or the test classes) came
     * from, else {@code scenarios/lab} or {@code lab} under the working directory.
     *
     * @return the directory, which may not exist
     */
    public static Path defaultDir() {
        try {
            Path code = Paths.get(Lessons.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // scenarios/target/datsim.jar or scenarios/target/classes: two levels up is scenarios/
            Path scenarios = code.getParent() != null ? code.getParent().getParent() : null;
            if (scenarios != null && Files.isDirectory(scenarios.resolve("lab"))) {
                return scenarios.resolve("lab");
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall through to the working directory
        }
        Path cwd = Paths.get("").toAbsolutePath();
        for (Path p : new Path[] {cwd.resolve("scenarios/lab"), cwd.resolve("lab")}) {
            if (Files.isDirectory(p)) {
                return p;
            }
        }
        return cwd.resolve("scenarios/lab");
    }

    /**
     * Lists the lesson directories of a lab directory, sorted by number.
     *
     * @param labDir the lab directory
     * @return the directories with their numbers, as (number, path) pairs in order
     * @throws LabException if the directory cannot be listed or two lessons share a number
     */
    public static List<Lesson> load(Path labDir) throws LabException {
        if (!Files.isDirectory(labDir)) {
            throw new LabException(List.of(labDir + ": no lab directory there (expected scenarios/lab of the"
                    + " datsim source tree; --lessons DIR names another)"));
        }
        List<Path> dirs = new ArrayList<>();
        try (Stream<Path> s = Files.list(labDir)) {
            s.filter(Files::isDirectory).filter(p -> NAME.matcher(p.getFileName().toString()).matches()).sorted()
                    .forEach(dirs::add);
        } catch (IOException e) {
            throw new LabException(List.of(labDir + ": cannot be listed: " + e.getMessage()));
        }
        if (dirs.isEmpty()) {
            throw new LabException(List.of(labDir + ": no lessons there (a lesson is a directory named like"
                    + " \"01-name\" holding a lesson.json)"));
        }
        List<Lesson> out = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        int last = -1;
        for (Path d : dirs) {
            Matcher m = NAME.matcher(d.getFileName().toString());
            m.matches();
            int n = Integer.parseInt(m.group(1));
            if (n == last) {
                problems.add(d + ": a second lesson numbered " + n);
                continue;
            }
            last = n;
            try {
                out.add(Lesson.load(n, d));
            } catch (LabException e) {
                problems.addAll(e.problems());
            }
        }
        if (!problems.isEmpty()) {
            throw new LabException(problems);
        }
        out.sort((a, b) -> Integer.compare(a.number(), b.number()));
        return out;
    }
}

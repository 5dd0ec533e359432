package org.datsim.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What bytecode cannot show: javac inlines compile-time constants ({@code static final} primitives and strings), so a
 * class that only reads {@code Dat.DTO_SUCCESS} keeps no reference to {@code Dat} and an ArchUnit rule cannot see the
 * dependency. This check reads the sources instead: the imports (static ones included) and the qualified names in
 * code lines of the files of one package tree that name a forbidden package.
 */
final class SourceImports {

    private SourceImports() {}

    /**
     * Lists "file:line: text" for each line under {@code root/fromPackage} (as a directory, sub-packages included)
     * that imports or names a class of {@code forbiddenPackage} or of its sub-packages.
     */
    static List<String> violations(Path root, String fromPackage, String forbiddenPackage) {
        Path dir = root.resolve(fromPackage.replace('.', '/'));
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("no source directory " + dir.toAbsolutePath());
        }
        String needle = forbiddenPackage + ".";
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    String code = codePart(lines.get(i));
                    if (code.contains(needle)) {
                        found.add(root.relativize(f) + ":" + (i + 1) + ": " + code.strip());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    /** The line without its comment (javadoc and block-comment lines, and trailing // comments, are not code). */
    private static String codePart(String line) {
        String s = line.strip();
        if (s.startsWith("*") || s.startsWith("/*") || s.startsWith("//")) {
            return "";
        }
        int c = s.indexOf("//");
        return c >= 0 ? s.substring(0, c) : s;
    }
}

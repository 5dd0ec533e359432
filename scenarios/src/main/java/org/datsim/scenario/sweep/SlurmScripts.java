package org.datsim.scenario.sweep;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the Slurm scripts of a study: {@code sweep.sbatch}, a job array whose task K runs shard K of N
 * ({@code datsim sweep run --shard K/N}) into a shared output directory; {@code merge.sbatch}, which merges the
 * results; and {@code submit.sh}, which submits the array and then the merge with {@code --dependency=afterok} on
 * the array, so the merge runs once every task succeeded. Shards write disjoint runs and finished runs are skipped,
 * so a failed or cancelled task can simply be resubmitted.
 */
public final class SlurmScripts {

    private SlurmScripts() {
    }

    /**
     * What to write.
     *
     * @param study the study file (made absolute)
     * @param out the output directory (made absolute; must be on a file system every node sees)
     * @param shards the array size
     * @param cpusPerTask cores per array task (its --jobs)
     * @param time the time limit of each task ({@code --time}), or null
     * @param partition the partition, or null
     * @param datsim the command that runs datsim on the nodes
     */
    public record Options(Path study, Path out, int shards, int cpusPerTask, String time, String partition,
            String datsim) {
    }

    /** Quotes a word for bash. */
    static String quote(String s) {
        return "'" + s.replace("'", "'\"'\"'") + "'";
    }

    /**
     * Returns the command that runs this datsim on another node of the same cluster: the running JVM with the
     * running jar, or {@code datsim} when not run from a jar.
     */
    public static String defaultCommand() {
        try {
            Path jar = Path.of(SlurmScripts.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            String java = ProcessHandle.current().info().command().orElse("java");
            if (jar.toString().endsWith(".jar")) {
                return quote(java) + " -jar " + quote(jar.toAbsolutePath().toString());
            }
        } catch (java.net.URISyntaxException | SecurityException | IllegalArgumentException e) {
            // fall through
        }
        return "datsim";
    }

    /**
     * Writes the scripts into {@code OUT/slurm}.
     *
     * @param name the study's name (the job name)
     * @param o the options
     * @return the scripts written: sweep.sbatch, merge.sbatch, submit.sh
     * @throws IOException if they cannot be written
     */
    public static List<Path> write(String name, Options o) throws IOException {
        Path dir = o.out().toAbsolutePath().resolve("slurm");
        Path logs = dir.resolve("logs");
        Files.createDirectories(logs);
        String out = quote(o.out().toAbsolutePath().toString());
        List<String> common = new ArrayList<>();
        if (o.time() != null) {
            common.add("#SBATCH --time=" + o.time());
        }
        if (o.partition() != null) {
            common.add("#SBATCH --partition=" + o.partition());
        }
        List<String> array = new ArrayList<>();
        array.add("#!/bin/bash");
        array.add("# The runs of study " + name + ", shard K of " + o.shards() + " per array task (datsim sweep"
                + " slurm).");
        array.add("#SBATCH --job-name=datsim-" + name);
        array.add("#SBATCH --array=1-" + o.shards());
        array.add("#SBATCH --ntasks=1");
        array.add("#SBATCH --cpus-per-task=" + o.cpusPerTask());
        array.add("#SBATCH --output=" + logs.resolve("sweep-%A_%a.out"));
        array.addAll(common);
        array.add("set -euo pipefail");
        array.add("exec " + o.datsim() + " sweep run " + quote(o.study().toAbsolutePath().toString()) + " --out "
                + out + " --shard \"${SLURM_ARRAY_TASK_ID}/" + o.shards() + "\" --jobs \"${SLURM_CPUS_PER_TASK:-"
                + o.cpusPerTask() + "}\"");
        List<String> merge = new ArrayList<>();
        merge.add("#!/bin/bash");
        merge.add("# Merges the results of study " + name + " once every array task succeeded.");
        merge.add("#SBATCH --job-name=datsim-" + name + "-merge");
        merge.add("#SBATCH --ntasks=1");
        merge.add("#SBATCH --cpus-per-task=1");
        merge.add("#SBATCH --output=" + logs.resolve("merge-%j.out"));
        merge.addAll(common);
        merge.add("set -euo pipefail");
        merge.add("exec " + o.datsim() + " sweep merge " + out);
        List<String> submit = new ArrayList<>();
        submit.add("#!/bin/bash");
        submit.add("# Submits the array, then the merge, which waits for every array task to succeed (afterok).");
        submit.add("set -euo pipefail");
        submit.add("cd \"$(dirname \"$0\")\"");
        submit.add("array=$(sbatch --parsable sweep.sbatch)");
        submit.add("array=${array%%;*}");
        submit.add("merge=$(sbatch --parsable --dependency=afterok:\"$array\" merge.sbatch)");
        submit.add("merge=${merge%%;*}");
        submit.add("echo \"array job $array (" + o.shards() + " tasks), merge job $merge\"");
        Path a = dir.resolve("sweep.sbatch");
        Path m = dir.resolve("merge.sbatch");
        Path s = dir.resolve("submit.sh");
        Files.write(a, array, StandardCharsets.UTF_8);
        Files.write(m, merge, StandardCharsets.UTF_8);
        Files.write(s, submit, StandardCharsets.UTF_8);
        // The scripts are run as `bash submit.sh` (the command prints that), so the executable bit is only a
        // convenience, set where the file system has POSIX permissions.
        if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            for (Path p : List.of(a, m, s)) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        }
        return List.of(a, m, s);
    }
}

package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code datsim sweep plan/run/merge/slurm}: exit codes, messages without stack traces for bad studies and options,
 * plain progress lines when the output is not a terminal, and the Slurm scripts (array, shards, afterok merge).
 */
class SweepCliTest {

    @TempDir
    Path tmp;


    private static CliRun datsim(String... args) {
        return CliRun.of(args);
    }

    private Path study(String axes) throws Exception {
        Path f = tmp.resolve("study.json");
        Files.writeString(f, "{\"study\": \"cli\", \"scenario\": " + ScenarioJson.base() + ", \"repetitions\": 2,"
                + " \"axes\": " + axes + "}");
        return f;
    }

    @Test
    void planListsTheRuns() throws Exception {
        CliRun r = datsim("sweep", "plan", study("[{\"path\": \"/fabric/params/hca.mtu\", \"values\": [\"1KiB\","
                + " \"2KiB\"]}]").toString());
        assertEquals(0, r.code(), r.all());
        List<String> lines = r.out().lines().toList();
        assertEquals("study cli: 2 point(s) x 2 repetition(s) = 4 run(s)", lines.get(0));
        assertEquals(7, lines.size(), r.all());
        assertTrue(lines.get(6).trim().startsWith("1    1 ") && lines.get(6).endsWith(" hca.mtu=2KiB"), r.all());
    }

    @Test
    void badStudiesAndOptionsExit2WithMessages() throws Exception {
        CliRun r = datsim("sweep", "plan", study("[{\"path\": \"/fabric/params/hca.mtu\", \"values\": 3}]").toString());
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().contains("study.json: $.axes[0].values: expected an array of values or a range"), r.all());
        assertTrue(r.err().contains("1 problem(s) in "), r.all());
        Path ok = study("[{\"path\": \"/fabric/params/hca.mtu\", \"values\": [\"1KiB\"]}]");
        for (String[] args : new String[][] {{"sweep", "run", ok.toString(), "--shard", "3/2"},
            {"sweep", "run", ok.toString(), "--jobs", "0"}, {"sweep", "merge", tmp.toString()},
            {"sweep", "merge", tmp.toString(), "--format", "gif"}, {"sweep", "plan", tmp.resolve("none").toString()}}) {
            CliRun x = datsim(args);
            assertEquals(2, x.code(), x.all());
            assertFalse(x.err().contains("Exception") || x.err().contains("\tat "), x.all());
        }
    }

    @Test
    void runPrintsPlainProgressAndMergeWritesTheTables() throws Exception {
        Path s = study("[{\"path\": \"/fabric/params/hca.mtu\", \"values\": [\"1KiB\", \"2KiB\"]}]");
        Path out = tmp.resolve("out");
        CliRun r = datsim("sweep", "run", s.toString(), "--out", out.toString(), "--jobs", "2");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.err().contains("sweep: 4 run(s) to do"), r.all());
        assertTrue(r.err().contains("sweep: 4/4 done, "), r.all());
        assertTrue(r.out().contains("4 run(s), 4 ran now, 0 finished before"), r.all());
        CliRun again = datsim("sweep", "run", s.toString(), "--out", out.toString(), "--shard", "2/2");
        assertTrue(again.out().contains("shard 2/2: 2 run(s), 0 ran now, 2 finished before"), again.all());
        CliRun m = datsim("sweep", "merge", out.toString());
        assertEquals(0, m.code(), m.all());
        assertTrue(Files.readString(out.resolve("results.csv")).startsWith("point,rep,seed,id,exit,hca.mtu,"));
        assertEquals(3, Files.readAllLines(out.resolve("aggregate.csv")).size());
    }

    @Test
    void slurmWritesAnArrayOfShardsAndAMergeThatWaitsForIt() throws Exception {
        Path s = study("[{\"path\": \"/fabric/params/hca.mtu\", \"values\": [\"1KiB\", \"2KiB\", \"4KiB\"]}]");
        Path out = tmp.resolve("cluster");
        CliRun r = datsim("sweep", "slurm", s.toString(), "--out", out.toString(), "--shards", "3", "--time",
                "00:10:00", "--datsim", "/opt/datsim/bin/datsim");
        assertEquals(0, r.code(), r.all());
        String array = Files.readString(out.resolve("slurm/sweep.sbatch"));
        assertTrue(array.contains("#SBATCH --array=1-3\n"), array);
        assertTrue(array.contains("#SBATCH --time=00:10:00\n"), array);
        assertTrue(array.contains("exec /opt/datsim/bin/datsim sweep run '" + s.toAbsolutePath() + "' --out '"
                + out.toAbsolutePath() + "' --shard \"${SLURM_ARRAY_TASK_ID}/3\""), array);
        String merge = Files.readString(out.resolve("slurm/merge.sbatch"));
        assertTrue(merge.contains("exec /opt/datsim/bin/datsim sweep merge '" + out.toAbsolutePath() + "'"), merge);
        String submit = Files.readString(out.resolve("slurm/submit.sh"));
        assertTrue(submit.contains("sbatch --parsable --dependency=afterok:\"$array\" merge.sbatch"), submit);
        CliRun bad = datsim("sweep", "slurm", s.toString(), "--partition", "a;rm -rf /");
        assertEquals(2, bad.code(), bad.all());
    }
}

package org.datsim.scenario.sweep;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.load.ScenarioException;
import org.datsim.scenario.load.ScenarioLoader;
import org.datsim.scenario.run.FileTrees;
import org.datsim.scenario.run.RunResultSummary;
import org.datsim.scenario.run.ScenarioRunner;

/**
 * Runs the runs of a study (or of one shard of it) on a pool of threads. Each run is independent (its own simulator,
 * fabric and random streams) and writes into {@code OUT/points/ID}, where ID is the hash of its scenario and seed.
 * A run is written into a temporary directory and renamed into place when complete, so a run that was killed leaves
 * nothing that looks finished, and a finished run is skipped when the sweep is run again.
 */
public final class SweepRunner {

    /** The directory of the runs, under the output directory. */
    public static final String POINTS = "points";
    /** The plan of the study, under the output directory: what {@code sweep merge} reads. */
    public static final String PLAN = "plan.json";

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SweepRunner() {
    }

    /**
     * What a sweep did.
     *
     * @param planned the runs of this shard
     * @param ran the runs executed now
     * @param skipped the runs found finished already
     * @param failedExpectations the runs executed now whose scenario exited 1 (recorded, with their metrics)
     * @param errors runs that could not be recorded (an output error or a bug), one message each
     */
    public record Outcome(int planned, int ran, int skipped, int failedExpectations, List<String> errors) {
    }

    /**
     * Returns the runs of one shard: run i belongs to shard (i mod n) + 1.
     *
     * @param study the study
     * @param shard the shard, from 1
     * @param shards the number of shards
     * @return the shard's runs, in plan order
     */
    public static List<Point> shard(Study study, int shard, int shards) {
        List<Point> out = new ArrayList<>();
        for (int i = 0; i < study.runs().size(); i++) {
            if (i % shards == shard - 1) {
                out.add(study.runs().get(i));
            }
        }
        return out;
    }

    /** Returns the directory of a run. */
    public static Path dir(Path out, Point p) {
        return out.resolve(POINTS).resolve(p.id());
    }

    /** Returns true if a run's directory is complete (it was renamed into place). */
    public static boolean finished(Path out, Point p) {
        return Files.isRegularFile(dir(out, p).resolve("point.json"));
    }

    /**
     * Runs the unfinished runs of one shard.
     *
     * @param study the validated study
     * @param out the output directory (created if needed)
     * @param jobs the number of runs at once
     * @param shard the shard, from 1
     * @param shards the number of shards
     * @param progress receives each finished run
     * @return what was done
     * @throws IOException if the output directory or the plan cannot be written
     * @throws InterruptedException if interrupted while waiting for the runs
     */
    public static Outcome run(Study study, Path out, int jobs, int shard, int shards, Progress progress)
            throws IOException, InterruptedException {
        return run(study, out, jobs, 1, shard, shards, progress);
    }

    /**
     * Runs the unfinished runs of one shard, each on {@code threads} threads where its scenario can run partitioned
     * ({@link ScenarioRunner#whyNotPartitioned}: a workload without consumer processes), its fabric split into as
     * many partitions; the others on one. The outputs are the same for every number of threads.
     *
     * @param study the validated study
     * @param out the output directory (created if needed)
     * @param jobs the number of runs at once
     * @param threads the threads of each run, at least 1
     * @param shard the shard, from 1
     * @param shards the number of shards
     * @param progress receives each finished run
     * @return what was done
     * @throws IOException if the output directory or the plan cannot be written
     * @throws InterruptedException if interrupted while waiting for the runs
     */
    public static Outcome run(Study study, Path out, int jobs, int threads, int shard, int shards,
            Progress progress) throws IOException, InterruptedException {
        Files.createDirectories(out.resolve(POINTS));
        writePlan(study, out);
        List<Point> mine = shard(study, shard, shards);
        List<Point> todo = new ArrayList<>();
        for (Point p : mine) {
            if (!finished(out, p)) {
                todo.add(p);
            }
        }
        int skipped = mine.size() - todo.size();
        progress.start(todo.size(), skipped);
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        int[] failed = new int[1];
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(jobs, Math.max(1, todo.size()))),
                r -> {
                    Thread t = new Thread(r, "sweep");
                    t.setDaemon(true);
                    return t;
                });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Point p : todo) {
                futures.add(pool.submit(() -> {
                    int code;
                    try {
                        code = runOne(study, out, p, threads);
                    } catch (IOException e) {
                        errors.add(p.describe() + ": cannot write " + dir(out, p) + ": " + e.getMessage());
                        code = -1;
                    } catch (ScenarioException e) {
                        errors.add(p.describe() + ": " + String.join("; ", e.problems()));
                        code = -1;
                    } catch (RuntimeException e) {
                        errors.add(p.describe() + ": internal error (a bug in datsim): " + e);
                        code = -1;
                    }
                    synchronized (failed) {
                        if (code == 1) {
                            failed[0]++;
                        }
                    }
                    progress.done(p, code);
                }));
            }
            for (Future<?> f : futures) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    errors.add("internal error: " + e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        progress.finish();
        List<String> sorted = new ArrayList<>(errors);
        Collections.sort(sorted);
        return new Outcome(mine.size(), todo.size() - sorted.size(), skipped, failed[0], sorted);
    }

    /** Runs one run into a temporary directory and renames it into place; returns the scenario's exit code. */
    static int runOne(Study study, Path out, Point p, int threads) throws IOException, ScenarioException {
        Path target = dir(out, p);
        Path points = out.resolve(POINTS);
        Path tmp = points.resolve(".tmp-" + p.id() + "-" + ProcessHandle.current().pid());
        try (java.nio.file.DirectoryStream<Path> stale = Files.newDirectoryStream(points, ".tmp-" + p.id() + "-*")) {
            for (Path x : stale) {
                FileTrees.delete(x); // left by a run of this point that was killed
            }
        }
        Files.createDirectories(tmp);
        Scenario s = ScenarioLoader.parse(target.resolve("scenario.json").toString(), p.scenarioJson());
        boolean traces = study.keepTraces();
        int partitions = threads > 1 && ScenarioRunner.whyNotPartitioned(s) == null
                ? Math.min(threads, Math.min(64, s.topology().hosts().size())) : 1;
        ScenarioRunner runner;
        try {
            runner = new ScenarioRunner(s, partitions, Math.min(threads, partitions));
        } catch (IllegalArgumentException e) {
            // a fabric the partitioned engine cannot split (a link of 1 ps): the sequential engine, same outputs
            runner = new ScenarioRunner(s);
        }
        RunResultSummary r = runner.perfetto(traces).eventsJsonl(traces).run(tmp, List.of());
        Files.writeString(tmp.resolve("scenario.json"), p.scenarioJson() + "\n", StandardCharsets.UTF_8);
        // the lines name the run's directory: the one it is renamed to, not the temporary one (whose name has a pid)
        List<String> lines = new ArrayList<>(r.lines().size());
        for (String line : r.lines()) {
            lines.add(line.replace(tmp.toString(), target.toString()));
        }
        Files.write(tmp.resolve("run.txt"), lines, StandardCharsets.UTF_8);
        ObjectNode pj = MAPPER.createObjectNode();
        pj.put("study", study.name());
        pj.put("point", p.point());
        pj.put("rep", p.rep());
        pj.put("seed", p.seed());
        pj.put("id", p.id());
        ObjectNode values = pj.putObject("values");
        p.values().forEach(values::set);
        pj.put("exit", r.exitCode());
        Files.writeString(tmp.resolve("point.json"), MAPPER.writeValueAsString(pj) + "\n", StandardCharsets.UTF_8);
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
            FileTrees.delete(tmp); // another shard or process finished the same run: the same scenario and seed
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system cannot rename " + tmp + " atomically", e);
        }
        return r.exitCode();
    }

    /** Writes plan.json (the study's axes, plot, metrics and runs) atomically. */
    static void writePlan(Study study, Path out) throws IOException {
        ObjectNode plan = MAPPER.createObjectNode();
        plan.put("study", study.name());
        plan.put("file", study.file());
        plan.put("description", study.description());
        plan.put("repetitions", study.repetitions());
        ArrayNode axes = plan.putArray("axes");
        for (Axis a : study.axes()) {
            axes.addObject().put("name", a.name()).put("path", a.pointer()).put("group", a.group());
        }
        ArrayNode metrics = plan.putArray("metrics");
        study.metrics().forEach(metrics::add);
        ObjectNode plot = plan.putObject("plot");
        plot.put("x", study.plotX());
        plot.put("series", study.plotSeries());
        plot.put("log_x", study.logX());
        if (!study.plotCaptions().isEmpty()) {
            ObjectNode captions = plot.putObject("captions");
            study.plotCaptions().forEach(captions::put);
        }
        ArrayNode runs = plan.putArray("runs");
        for (Point p : study.runs()) {
            ObjectNode r = runs.addObject();
            r.put("point", p.point()).put("rep", p.rep()).put("seed", p.seed()).put("id", p.id());
            ObjectNode v = r.putObject("values");
            p.values().forEach(v::set);
        }
        // array tasks on several nodes write the same plan at once: each through a temporary file of its own
        Path tmp = out.resolve(".tmp-plan-" + java.util.UUID.randomUUID());
        Files.writeString(tmp, MAPPER.writeValueAsString(plan) + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, out.resolve(PLAN), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}

package org.datsim.scenario.sweep;

import java.util.List;

/**
 * A validated study, with every run planned and every run's scenario validated.
 *
 * @param file the study file as given
 * @param name the study's name
 * @param description what it asks
 * @param axes the axes in order (the first varies slowest)
 * @param repetitions runs per point
 * @param metrics the metric selectors (names, globs with {@code *}, or JSON Pointers into summary.json); empty for
 *     every standard metric
 * @param plotX the axis plotted along x (null: the first axis)
 * @param plotSeries the axis drawn as one line per value (null: the second axis, if any)
 * @param logX whether the x axis of plots is logarithmic
 * @param keepTraces whether each run keeps its events.jsonl
 * @param runs every run, in plan order (point, then repetition)
 * @param plotCaptions a caption per metric for its plots (what the model says about the curve's shape), in file order
 */
public record Study(String file, String name, String description, List<Axis> axes, int repetitions,
        List<String> metrics, String plotX, String plotSeries, boolean logX, boolean keepTraces, List<Point> runs,
        java.util.Map<String, String> plotCaptions) {

    /** Returns the number of points (combinations of axis values). */
    public int points() {
        return runs.size() / repetitions;
    }
}

package org.datsim.scenario.workload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A flow size distribution given as a piecewise-linear CDF, in the format of HPCC's {@code traffic_gen/}: one point
 * per line, {@code size_bytes cdf_percent}, the first at percent 0, the last at 100, both columns strictly
 * increasing. Sampling and the mean are those of HPCC's {@code custom_rand.py}: a uniform percentile is mapped to a
 * size by linear interpolation between the two points around it, and the mean is the trapezoid sum.
 */
public final class FlowSizeCdf {

    /** The distributions shipped with datsim, by name (see the resource directory's SOURCES.md). */
    public static final List<String> NAMES = List.of("WebSearch", "FbHdp", "AliStorage2019", "GoogleRPC2008");
    /** The most points a CDF file may have. */
    static final int MAX_POINTS = 100_000;

    private final String name;
    private final double[] size;
    private final double[] percent;

    private FlowSizeCdf(String name, double[] size, double[] percent) {
        this.name = name;
        this.size = size;
        this.percent = percent;
    }

    /**
     * Returns a shipped distribution.
     *
     * @param name one of {@link #NAMES}
     * @return the distribution, or null if no shipped distribution has that name
     */
    public static FlowSizeCdf named(String name) {
        String resource = switch (name) {
            case "WebSearch" -> "WebSearch_distribution.txt";
            case "FbHdp" -> "FbHdp_distribution.txt";
            case "AliStorage2019" -> "AliStorage2019.txt";
            case "GoogleRPC2008" -> "GoogleRPC2008.txt";
            default -> null;
        };
        if (resource == null) {
            return null;
        }
        try (InputStream in = FlowSizeCdf.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the distribution " + resource + " is missing from datsim's jar");
            }
            List<String> problems = new ArrayList<>();
            FlowSizeCdf cdf = parse(name, new String(in.readAllBytes(), StandardCharsets.UTF_8), problems);
            if (cdf == null) {
                throw new IllegalStateException("the shipped distribution " + resource + " is invalid: " + problems);
            }
            return cdf;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the distribution " + resource + " from datsim's jar", e);
        }
    }

    /**
     * Parses a CDF.
     *
     * @param file the file's name as messages give it
     * @param text the file's text
     * @param problems receives one message per problem, {@code FILE:LINE: ...}
     * @return the distribution, or null if there were problems
     */
    public static FlowSizeCdf parse(String file, String text, List<String> problems) {
        int before = problems.size();
        List<double[]> points = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].trim();
            if (line.isEmpty()) {
                continue;
            }
            if (points.size() >= MAX_POINTS) {
                problems.add(file + ":" + (i + 1) + ": more than " + MAX_POINTS + " points");
                return null;
            }
            String[] f = line.split("\\s+");
            double x;
            double y;
            try {
                if (f.length != 2) {
                    throw new NumberFormatException();
                }
                x = Double.parseDouble(f[0]);
                y = Double.parseDouble(f[1]);
            } catch (NumberFormatException e) {
                problems.add(file + ":" + (i + 1) + ": expected \"size_bytes cdf_percent\", found \"" + cut(line)
                        + "\"");
                continue;
            }
            if (!(x >= 0) || !(y >= 0) || !(y <= 100) || Double.isInfinite(x)) {
                problems.add(file + ":" + (i + 1) + ": expected a size >= 0 and a percent from 0 to 100, found \""
                        + cut(line) + "\"");
                continue;
            }
            if (!points.isEmpty()) {
                double[] last = points.get(points.size() - 1);
                if (x <= last[0] || y <= last[1]) {
                    problems.add(file + ":" + (i + 1) + ": sizes and percents must both increase from line to"
                            + " line, found \"" + cut(line) + "\" after " + fmt(last[0]) + " " + fmt(last[1]));
                    continue;
                }
            }
            points.add(new double[] {x, y});
        }
        if (problems.size() > before) {
            return null;
        }
        if (points.size() < 2 || points.get(0)[1] != 0 || points.get(points.size() - 1)[1] != 100) {
            problems.add(file + ": expected at least two points, the first at percent 0 and the last at 100");
            return null;
        }
        double[] xs = new double[points.size()];
        double[] ys = new double[points.size()];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = points.get(i)[0];
            ys[i] = points.get(i)[1];
        }
        return new FlowSizeCdf(file, xs, ys);
    }

    private static String cut(String s) {
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    /** Returns the distribution's name (or file). */
    public String name() {
        return name;
    }

    /** Returns the largest size, bytes. */
    public double max() {
        return size[size.length - 1];
    }

    /** Returns the mean size in bytes, as HPCC's {@code getAvg} computes it (trapezoids between the points). */
    public double mean() {
        double s = 0;
        for (int i = 1; i < size.length; i++) {
            s += (size[i] + size[i - 1]) / 2.0 * (percent[i] - percent[i - 1]);
        }
        return s / 100;
    }

    /**
     * Returns the size at a percentile, interpolated linearly (HPCC's {@code getValueFromPercentile}).
     *
     * @param p the percentile, 0 to 100
     * @return the size in bytes (not rounded)
     */
    public double at(double p) {
        for (int i = 1; i < size.length; i++) {
            if (p <= percent[i]) {
                return size[i - 1] + (size[i] - size[i - 1]) / (percent[i] - percent[i - 1]) * (p - percent[i - 1]);
            }
        }
        return size[size.length - 1];
    }

    /**
     * Draws a size as HPCC's {@code traffic_gen.py} does: the interpolated size at a uniform percentile, cut to a
     * whole number, at least 1.
     *
     * @param uniform a uniform draw in [0, 1)
     * @return the size in bytes, at least 1
     */
    public long sample(double uniform) {
        return Math.max(1, (long) at(uniform * 100));
    }
}

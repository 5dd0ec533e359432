package org.datsim.scenario.workload;


import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.datsim.core.time.DataRate;
import org.datsim.core.time.SimTime;
import org.datsim.fabric.topology.LinkSpec;
import org.datsim.fabric.topology.TopologyBuilder;
import org.datsim.scenario.load.JsonInput;
import org.datsim.scenario.load.ScenarioException;

/**
 * Reads HPCC's own input files (its simulator's {@code simulation/mix/} formats), so that HPCC users bring theirs
 * unchanged. Node numbers become names: host {@code n} is {@code h<n>}, switch {@code n} is {@code s<n>}. Hosts
 * are the nodes not listed as switches, in number order, so a host's index in the topology is its rank among them
 * (equal to its number when, as in HPCC's topologies, the hosts are numbered first).
 *
 * <p>Topology: first line {@code nodes switches links}, second line the switch numbers, then one line per link
 * {@code a b rate delay error_rate} (rate such as {@code 100Gbps}, delay such as {@code 1000ns} or
 * {@code 0.001ms}); a non-zero error rate is refused (datsim's links do not drop at random).
 *
 * <p>Flows: first line the count, then one line per flow {@code src dst priority dport size_bytes start_s}
 * (priority and dport are read and not used: datsim has one traffic class, and a flow's queue pair is its own).
 * Problems are reported as {@code FILE:LINE: message}.
 */
public final class HpccFiles {

    /** The largest file accepted, bytes. */
    public static final long MAX_FILE_BYTES = 256L << 20;
    /** The most nodes of a topology. */
    public static final int MAX_NODES = 100_000;
    /** The most links of a topology. */
    public static final int MAX_LINKS = 1_000_000;

    private HpccFiles() {
    }

    /** The lists of an HPCC topology, with each host's node number. */
    public record Topology(TopologyBuilder lists, int[] hostNodes) {
    }

    /**
     * Reads a file's text, bounded.
     *
     * @param file the file
     * @param problems receives a message if it cannot be read
     * @return the text, or null
     */
    public static String read(Path file, List<String> problems) {
        try {
            return JsonInput.text(file.toString(), JsonInput.readBytes(file, "HPCC", MAX_FILE_BYTES), "HPCC");
        } catch (ScenarioException e) {
            problems.addAll(e.problems());
            return null;
        }
    }

    /**
     * Parses a topology.
     *
     * @param file the name messages give
     * @param text the text
     * @param problems receives one message per problem
     * @return the topology's lists, or null if there were problems
     */
    public static Topology topology(String file, String text, List<String> problems) {
        int before = problems.size();
        String[] lines = text.split("\n", -1);
        int[] at = {0};
        long[] head = numbers(file, lines, at, 3, problems, "\"nodes switches links\"");
        if (head == null) {
            return null;
        }
        if (head[0] < 2 || head[0] > MAX_NODES || head[1] < 0 || head[1] >= head[0] || head[2] < 1
                || head[2] > MAX_LINKS) {
            problems.add(file + ":" + at[0] + ": expected 2 to " + MAX_NODES + " nodes, fewer switches than nodes and"
                    + " 1 to " + MAX_LINKS + " links, found " + head[0] + " " + head[1] + " " + head[2]);
            return null;
        }
        int nodes = (int) head[0];
        long[] sw = numbers(file, lines, at, (int) head[1], problems, head[1] + " switch numbers");
        if (sw == null) {
            return null;
        }
        boolean[] isSwitch = new boolean[nodes];
        for (long s : sw) {
            if (s < 0 || s >= nodes || isSwitch[(int) s]) {
                problems.add(file + ":" + at[0] + ": switch number " + s + (s < 0 || s >= nodes
                        ? " is not a node (0 to " + (nodes - 1) + ")" : " is listed twice"));
                return null;
            }
            isSwitch[(int) s] = true;
        }
        List<LinkSpec> links = new ArrayList<>();
        for (int l = 0; l < head[2]; l++) {
            String[] f = nextLine(lines, at);
            int line = at[0];
            if (f == null) {
                problems.add(file + ":" + line + ": expected " + head[2] + " links, found " + l);
                return null;
            }
            if (f.length != 5) {
                problems.add(file + ":" + line + ": expected \"a b rate delay error_rate\", found \""
                        + show(String.join(" ", f)) + "\"");
                continue;
            }
            int a = node(file, line, f[0], nodes, problems);
            int b = node(file, line, f[1], nodes, problems);
            long rate = -1;
            long delay = -1;
            try {
                rate = DataRate.parse(f[2]).bitsPerSecond();
            } catch (IllegalArgumentException e) {
                problems.add(file + ":" + line + ": expected a rate such as 100Gbps, found \"" + show(f[2]) + "\"");
            }
            try {
                delay = SimTime.parse(f[3]);
            } catch (IllegalArgumentException e) {
                problems.add(file + ":" + line + ": expected a delay such as 1000ns or 0.001ms, found \"" + show(f[3]) + "\"");
            }
            try {
                if (Double.parseDouble(f[4]) != 0) {
                    problems.add(file + ":" + line + ": error rate " + f[4] + ": datsim's links do not drop packets"
                            + " at random; expected 0");
                }
            } catch (NumberFormatException e) {
                problems.add(file + ":" + line + ": expected an error rate such as 0.000000, found \"" + show(f[4]) + "\"");
            }
            if (a >= 0 && b >= 0 && a == b) {
                problems.add(file + ":" + line + ": a link from node " + a + " to itself");
            }
            if (a >= 0 && b >= 0 && rate > 0 && delay >= 0) {
                links.add(new LinkSpec(name(a, isSwitch), name(b, isSwitch), rate, delay));
            }
        }
        if (problems.size() > before) {
            return null;
        }
        List<String> hosts = new ArrayList<>();
        List<String> switches = new ArrayList<>();
        int[] hostNodes = new int[nodes - sw.length];
        for (int i = 0; i < nodes; i++) {
            if (isSwitch[i]) {
                switches.add(name(i, isSwitch));
            } else {
                hostNodes[hosts.size()] = i;
                hosts.add(name(i, isSwitch));
            }
        }
        return new Topology(new TopologyBuilder(hosts, switches, links), hostNodes);
    }

    /**
     * Parses a flow file.
     *
     * @param file the name messages give
     * @param text the text
     * @param hostNodes the node number of each host, in host order
     * @param problems receives one message per problem
     * @return the flows in file order, or null if there were problems
     */
    public static List<Flow> flows(String file, String text, int[] hostNodes, List<String> problems) {
        return flows(file, text, hostNodes, false, problems);
    }

    /**
     * Parses a flow file, its start times read exactly (to the picosecond) or as HPCC's simulator reads them.
     *
     * @param file the name messages give
     * @param text the text
     * @param hostNodes the node number of each host, in host order
     * @param ns3Starts true: each start time as HPCC's third.cc takes it ({@link #ns3Seconds}: a double, then ns-3's
     *     nanoseconds rounded down, so about half of traffic_gen's flows start a nanosecond before their decimal);
     *     false: the decimal exactly
     * @param problems receives one message per problem
     * @return the flows in file order, or null if there were problems
     */
    public static List<Flow> flows(String file, String text, int[] hostNodes, boolean ns3Starts,
            List<String> problems) {
        int before = problems.size();
        int maxNode = 0;
        for (int h : hostNodes) {
            maxNode = Math.max(maxNode, h);
        }
        int[] hostOf = new int[maxNode + 1];
        Arrays.fill(hostOf, -1);
        for (int i = 0; i < hostNodes.length; i++) {
            if (hostNodes[i] >= 0) {
                hostOf[hostNodes[i]] = i;
            }
        }
        String[] lines = text.split("\n", -1);
        int[] at = {0};
        long[] head = numbers(file, lines, at, 1, problems, "the number of flows");
        if (head == null) {
            return null;
        }
        if (head[0] < 0 || head[0] > FlowGenerator.MAX_FLOWS) {
            problems.add(file + ":" + at[0] + ": expected 0 to " + FlowGenerator.MAX_FLOWS + " flows, found "
                    + head[0]);
            return null;
        }
        List<Flow> flows = new ArrayList<>();
        for (int i = 0; i < head[0]; i++) {
            String[] f = nextLine(lines, at);
            int line = at[0];
            if (f == null) {
                problems.add(file + ":" + line + ": expected " + head[0] + " flows as the first line says, found " + i);
                return null;
            }
            String shown = "\"" + show(String.join(" ", f)) + "\"";
            if (f.length != 6) {
                problems.add(file + ":" + line + ": expected \"src dst priority dport size_bytes start_s\", found "
                        + shown);
                continue;
            }
            int src = host(file, line, f[0], hostOf, problems);
            int dst = host(file, line, f[1], hostOf, problems);
            long size = -1;
            long start = -1;
            int dport = -1;
            try {
                Integer.parseInt(f[2]);
                dport = Integer.parseInt(f[3]);
                if (dport < 0 || dport > 0xFFFF) {
                    problems.add(file + ":" + line + ": expected a dport from 0 to 65535, found \"" + show(f[3]) + "\"");
                }
                size = Long.parseLong(f[4]);
                if (size < 1 || size > (1L << 40)) {
                    problems.add(file + ":" + line + ": expected a size from 1 to 2^40 bytes, found \"" + show(f[4]) + "\"");
                    size = -1;
                }
            } catch (NumberFormatException e) {
                problems.add(file + ":" + line + ": expected whole numbers for priority, dport and size_bytes, found "
                        + shown);
            }
            try {
                start = ns3Starts ? ns3Seconds(f[5]) : seconds(f[5]);
            } catch (NumberFormatException e) {
                problems.add(file + ":" + line + ": expected a start time in seconds from 0 to 1e6, found \"" + show(f[5])
                        + "\"");
            }
            if (src >= 0 && src == dst) {
                problems.add(file + ":" + line + ": a flow from host " + f[0] + " to itself");
            } else if (src >= 0 && dst >= 0 && size > 0 && start >= 0 && dport >= 0 && dport <= 0xFFFF) {
                flows.add(new Flow(src, dst, size, start, dport));
            }
        }
        if (nextLine(lines, at) != null) {
            problems.add(file + ":" + at[0] + ": more flows than the " + head[0] + " the first line says");
        }
        return problems.size() > before ? null : flows;
    }

    /** Seconds in decimal to picoseconds, exactly (no binary rounding): "2.000000350" is 2000000350000 ps. */
    static long seconds(String s) {
        return exactSeconds(s).movePointRight(12).setScale(0, java.math.RoundingMode.HALF_EVEN).longValueExact();
    }

    /**
     * Seconds in decimal to picoseconds as HPCC's simulator takes a flow's start: third.cc reads {@code start_s} into
     * a double and schedules the flow at ns-3's {@code Seconds(start_time)}, which keeps whole nanoseconds, rounded
     * down. So "2.000000155", whose nearest double is just below it, is 2000000154 ns (HPCC's FCT file starts that
     * flow then), and "2.000000350" 2000000350 ns.
     */
    static long ns3Seconds(String s) {
        java.math.BigDecimal d = exactSeconds(s);
        return new java.math.BigDecimal(d.doubleValue()).movePointRight(9).setScale(0, java.math.RoundingMode.FLOOR)
                .longValueExact() * 1000;
    }

    private static java.math.BigDecimal exactSeconds(String s) {
        java.math.BigDecimal d = new java.math.BigDecimal(s);
        if (d.signum() < 0 || d.compareTo(java.math.BigDecimal.valueOf(1_000_000)) > 0) {
            throw new NumberFormatException();
        }
        return d;
    }

    private static String name(int node, boolean[] isSwitch) {
        return (isSwitch[node] ? "s" : "h") + node;
    }

    private static int node(String file, int line, String s, int nodes, List<String> problems) {
        try {
            int v = Integer.parseInt(s);
            if (v >= 0 && v < nodes) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(file + ":" + line + ": expected a node number from 0 to " + (nodes - 1) + ", found \"" + show(s)
                + "\"");
        return -1;
    }

    private static int host(String file, int line, String s, int[] hostOf, List<String> problems) {
        try {
            int v = Integer.parseInt(s);
            if (v >= 0 && v < hostOf.length && hostOf[v] >= 0) {
                return hostOf[v];
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(file + ":" + line + ": expected the node number of a host of the topology, found \"" + show(s)
                + "\"");
        return -1;
    }

    /** The next non-blank line's fields, advancing {@code at[0]} to its 1-based number; null at the end. */
    private static String[] nextLine(String[] lines, int[] at) {
        while (at[0] < lines.length) {
            String l = lines[at[0]++].trim();
            if (!l.isEmpty()) {
                return l.split("\\s+");
            }
        }
        return null;
    }

    private static long[] numbers(String file, String[] lines, int[] at, int count, List<String> problems,
            String what) {
        String[] f = count == 0 ? new String[0] : nextLine(lines, at);
        if (f == null) {
            problems.add(file + ":" + (at[0] + 1) + ": expected " + what + ", found the end of the file");
            return null;
        }
        long[] out = new long[count];
        try {
            if (f.length != count) {
                throw new NumberFormatException();
            }
            for (int i = 0; i < count; i++) {
                out[i] = Long.parseLong(f[i]);
            }
        } catch (NumberFormatException e) {
            problems.add(file + ":" + at[0] + ": expected " + what + ", found \"" + show(String.join(" ", f)) + "\"");
            return null;
        }
        return out;
    }

    /** A value of the file as a message shows it: control characters escaped, at most 80 characters. */
    private static String show(String value) {
        return org.datsim.core.util.Text.clean(value, 80);
    }
}

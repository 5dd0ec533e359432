package org.datsim.scenario.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The wall time this process has run, for the benchmarks' {@code process_wall_s}. On Linux it is the kernel's own
 * account, both ends on the boot-time clock: {@code /proc/uptime} now less the process's start ({@code starttime} of
 * {@code /proc/self/stat}, in clock ticks since boot), so it counts from the exec of the {@code java} launcher and is
 * good to the tick, 10 ms (both are truncated to it). It used to come from {@link ProcessHandle.Info#startInstant()},
 * which adds that start to the boot time of {@code /proc/stat}, kept in whole seconds: up to a second too long.
 * Elsewhere, or when the two files disagree with that coarse start by more than its second, it falls back to the
 * JVM's uptime ({@code RuntimeMXBean}, to the millisecond, from the creation of the
 * JVM, which is a little after the process started). Reading {@code /proc} costs well under a millisecond; loading
 * the management classes took 50 to 150 ms on the shared development machine, which is why they are the fallback.
 */
final class ProcessClock {

    /** Ticks per second of {@code /proc}'s times: USER_HZ, 100 on every Linux architecture datsim runs on. */
    static final int USER_HZ = 100;

    /** The wall time and the precision of its source. */
    record Wall(double seconds, double precisionSeconds, String source) {
    }

    private ProcessClock() {
    }

    /**
     * Returns the wall time since this process started.
     *
     * @return the time, its precision and its source
     */
    static Wall wall() {
        Wall w = fromProc(Path.of("/proc/self/stat"), Path.of("/proc/uptime"));
        // A container may show its own uptime in /proc/uptime (lxcfs) while starttime counts from the host's boot:
        // then the two disagree with ProcessHandle's start instant (which is at most a second early) by more than
        // that, and the JVM's uptime is used instead.
        java.util.Optional<java.time.Instant> start = ProcessHandle.current().info().startInstant();
        if (w != null && start.isPresent()) {
            double coarse = java.time.Duration.between(start.get(), java.time.Instant.now()).toNanos() / 1e9;
            if (w.seconds() > coarse + 0.05 || w.seconds() < coarse - 1.05) {
                w = null;
            }
        }
        if (w != null) {
            return w;
        }
        return new Wall(java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0, 0.001,
                "jvm_uptime");
    }

    /**
     * The process's age from a {@code stat} and an {@code uptime} file of {@code /proc}, or null if they cannot be
     * read or parsed.
     */
    static Wall fromProc(Path stat, Path uptime) {
        try {
            String s = Files.readString(stat, StandardCharsets.US_ASCII);
            String u = Files.readString(uptime, StandardCharsets.US_ASCII);
            return fromProcText(s, u);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The process's age from the text of {@code /proc/PID/stat} and {@code /proc/uptime}, or null if they do not
     * parse. The command name in the stat line may hold spaces and parentheses, so the fields are counted from the
     * last {@code ')'}: {@code starttime} is the 22nd field, the 20th after it.
     */
    static Wall fromProcText(String stat, String uptime) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return null;
        }
        String[] f = stat.substring(close + 1).trim().split(" +");
        if (f.length < 20) {
            return null;
        }
        long startTicks = Long.parseLong(f[19]);
        String up = uptime.trim().split("\\s+")[0];
        int dot = up.indexOf('.');
        // /proc/uptime prints seconds with two decimals: exact hundredths, so whole ticks at USER_HZ = 100
        long upHundredths = dot < 0 ? Long.parseLong(up) * 100
                : Long.parseLong(up.substring(0, dot)) * 100 + Long.parseLong((up.substring(dot + 1) + "00")
                        .substring(0, 2));
        long ageTicks = upHundredths * USER_HZ / 100 - startTicks;
        if (ageTicks < 0) {
            return null;
        }
        return new Wall(ageTicks / (double) USER_HZ, 1.0 / USER_HZ, "proc");
    }
}

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs one datsim benchmark from two jars alternately in one JVM, each jar in a class loader of its own, and prints
 * the ratio new/old of the median run-phase wall time and main-thread CPU time. Sharing the process removes what
 * differs between JVMs (the physical pages the heap gets, the host's state at each start), which on a shared
 * virtual machine moves one run of a memory-bound benchmark by up to 2x (docs/performance.md).
 *
 * <p>Usage: {@code java scripts/bench/SameProcessAB.java OLD.jar NEW.jar ROUNDS bench-name [bench args...]}, e.g.
 * {@code java -XX:+UseParallelGC -Xmx6g scripts/bench/SameProcessAB.java base.jar new.jar 6 fattree}, or a scenario run
 * timed whole: {@code ... base.jar new.jar 8 run scenarios/examples/many-clients.json --out /tmp/ab --force}. The first
 * round of each jar is a warm-up and is left out of the medians.
 */
public final class SameProcessAB {

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: SameProcessAB OLD.jar NEW.jar ROUNDS BENCH [ARGS...]");
            System.exit(2);
        }
        String[] jars = {args[0], args[1]};
        for (String jar : jars) {
            if (!java.nio.file.Files.isRegularFile(Path.of(jar))) {
                System.err.println("SameProcessAB: no such jar: " + jar);
                System.exit(2);
            }
        }
        if (!args[2].matches("[1-9][0-9]{0,3}")) {
            System.err.println("SameProcessAB: ROUNDS must be a whole number from 1 to 9999, found " + args[2]);
            System.exit(2);
        }
        int rounds = Integer.parseInt(args[2]);
        // "run SCENARIO ..." times a scenario run (wall time of the whole command: load, run, outputs); anything
        // else is a bench, timed by the run phase it prints
        boolean scenario = args[3].equals("run");
        List<String> cli = new ArrayList<>(scenario ? List.of() : List.of("bench"));
        cli.addAll(Arrays.asList(args).subList(3, args.length));
        String[] cliArgs = cli.toArray(new String[0]);
        Method[] execute = new Method[2];
        ClassLoader[] loaders = new ClassLoader[2];
        for (int j = 0; j < 2; j++) {
            loaders[j] = new URLClassLoader(new URL[] {Path.of(jars[j]).toUri().toURL()},
                    ClassLoader.getPlatformClassLoader());
            execute[j] = loaders[j].loadClass("org.datsim.scenario.cli.DatsimCli")
                    .getMethod("execute", String[].class, PrintWriter.class, PrintWriter.class);
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double[][] wall = new double[2][rounds];
        double[][] cpu = new double[2][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 2; k++) {
                int j = (r % 2 == 0) ? k : 1 - k; // ABBA order: neither jar always runs first
                System.gc();
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                Thread.currentThread().setContextClassLoader(loaders[j]);
                long c0 = mx.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                int rc = (Integer) execute[j].invoke(null, cliArgs, new PrintWriter(out), new PrintWriter(err));
                long t1 = System.nanoTime();
                long c1 = mx.getCurrentThreadCpuTime();
                if (rc != 0) {
                    System.err.println((j == 0 ? "old" : "new") + " exited " + rc + ":\n" + out + err);
                    System.exit(1);
                }
                double w = scenario ? (t1 - t0) / 1e9 : Double.NaN;
                for (String line : out.toString().split("\n")) {
                    if (line.startsWith("run_wall_s=") || line.startsWith("sim_wall_s=")) {
                        w = Double.parseDouble(line.substring(line.indexOf('=') + 1).trim());
                    }
                }
                wall[j][r] = w;
                cpu[j][r] = (c1 - c0) / 1e9;
                System.out.printf("round %d %s: run wall %.3f s, main-thread CPU %.3f s%n", r + 1, j == 0 ? "old" : "new",
                        w, cpu[j][r]);
            }
        }
        int from = rounds > 1 ? 1 : 0;
        double wo = median(wall[0], from), wn = median(wall[1], from);
        double co = median(cpu[0], from), cn = median(cpu[1], from);
        System.out.printf("median run wall: old %.3f new %.3f new/old %.3f%n", wo, wn, wn / wo);
        System.out.printf("median main-thread CPU: old %.3f new %.3f new/old %.3f (rounds %d, first left out: %b)%n",
                co, cn, cn / co, rounds - from, from == 1);
    }

    private static double median(double[] v, int from) {
        double[] s = Arrays.copyOfRange(v, from, v.length);
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}

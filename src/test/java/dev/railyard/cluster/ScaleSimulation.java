package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Culprit;
import dev.railyard.model.ValidationReport;
import dev.railyard.platform.Clock;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * validate over n simulated hosts (two RDMA rails) through the stub launcher, with three injected faults: one bad
 * node and one bad link on rail0, and rail1 slow everywhere. Prints the rounds, the culprits, the coordinator's own
 * time per round (the stub answers at once, so a round costs only what the coordinator does) and its peak RSS.
 * Run by scripts/validate-scale-sim.sh; ScaleSimulationTest asserts the rounds and culprits (not the time).
 */
public final class ScaleSimulation {

    /** The injected faults of an n-host run: a bad node a fifth of the way in, a bad link between two others. */
    record Faults(String badNode, String linkA, String linkB) {
        static Faults of(int hosts) {
            List<String> names = PairFixtures.names(hosts);
            return new Faults(names.get(hosts / 5), names.get(2 * hosts / 5), names.get(3 * hosts / 5));
        }
    }

    /** Good RDMA 38 Gb/s on 40G; the bad node 20; the bad link 9.55 (10G negotiated); rail1 25 everywhere. */
    static StubLauncher.Figures figures(Faults f) {
        return (net, client, server, kind, call) -> switch (kind) {
            case "rdma-bw" -> net.equals("rail1") ? 25.0
                    : client.equals(f.badNode()) || server.equals(f.badNode()) ? 20.0
                    : (client.equals(f.linkA()) && server.equals(f.linkB())) || (client.equals(f.linkB()) && server.equals(f.linkA())) ? 9.55
                    : 38.0;
            case "rdma-lat" -> 1.1;
            default -> 30.0;
        };
    }

    record Result(ValidationReport report, Map<String, List<Long>> roundNanos, long totalNanos) {}

    static Result run(int hosts) throws InterruptedException {
        ClusterSpec spec = PairFixtures.spec(hosts, 2, true);
        StubLauncher stub = new StubLauncher(spec, figures(Faults.of(hosts)));
        stub.countCalls = false;
        stub.listStarts = false;
        Map<String, Long> roundStart = new ConcurrentHashMap<>();
        Map<String, List<Long>> roundNanos = new ConcurrentHashMap<>();
        Progress timing = new Progress(Clock.system()) {
            @Override public void note(String line) { }
            @Override public void finish() { }
            @Override protected void redraw(String event) { }
            @Override public void phase(String text) {
                // "rail0 round 3/511": the previous round of that rail ends where the next begins
                int space = text.indexOf(' ');
                if (space < 0 || !text.contains(" round ")) return;
                String rail = text.substring(0, space);
                long now = System.nanoTime();
                Long prev = roundStart.put(rail, now);
                if (prev != null) roundNanos.computeIfAbsent(rail, k -> java.util.Collections.synchronizedList(new ArrayList<>())).add(now - prev);
            }
        };
        long t0 = System.nanoTime();
        ValidationReport r = new ClusterValidation(spec, Optional.empty(), stub, ValidateSettings.of(false, 64, Duration.ofMinutes(1)),
                RunRecorder.none(), timing, Clock.system(), "sim-" + hosts).run(List.of("simulation"));
        return new Result(r, roundNanos, System.nanoTime() - t0);
    }

    public static void main(String[] args) throws Exception {
        int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 512;
        Result res = run(hosts);
        ValidationReport r = res.report();
        System.out.printf(Locale.ROOT, "hosts %d, rounds %d, pair tests %d (retests %d), wall %.1f s%n", hosts, r.rounds(),
                r.pairs().size(), r.pairs().stream().filter(p -> p.attempt() == 2).count(), res.totalNanos() / 1e9);
        for (Map.Entry<String, List<Long>> e : new java.util.TreeMap<>(res.roundNanos()).entrySet()) {
            long[] v = e.getValue().stream().mapToLong(Long::longValue).sorted().toArray();
            System.out.printf(Locale.ROOT, "%s: %d round intervals, coordinator time per round median %.2f ms, p90 %.2f ms, max %.2f ms%n",
                    e.getKey(), v.length, v[v.length / 2] / 1e6, v[(int) (v.length * 0.9)] / 1e6, v[v.length - 1] / 1e6);
        }
        for (Culprit c : r.culprits()) {
            String ev = c.evidence();
            System.out.println("culprit " + c.kind() + " " + c.subject() + ": " + (ev.length() > 160 ? ev.substring(0, 157) + "..." : ev));
        }
        System.out.println("verdict " + r.severity());
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM") || line.startsWith("VmRSS")) System.out.println(line.replaceAll("\\s+", " "));
        }
        System.out.printf(Locale.ROOT, "heap max %d MB%n", Runtime.getRuntime().maxMemory() >> 20);
        if (args.length > 1) {
            // the report directory of the run, with each file's size: what a user of a cluster this size opens
            Path dir = Path.of(args[1]);
            long w0 = System.nanoTime();
            List<Path> files = dev.railyard.report.ValidationReportFiles.write(r, dir);
            System.out.printf(Locale.ROOT, "report written in %.1f s to %s%n", (System.nanoTime() - w0) / 1e9, dir);
            for (Path f : files) System.out.printf(Locale.ROOT, "  %-28s %,12d bytes%n", f.getFileName(), Files.size(f));
        }
    }
}

package dev.railyard.cli;

import dev.railyard.bench.gpu.GpuCopyBenchmark;
import dev.railyard.model.GpuCopyResult;
import dev.railyard.check.GpuCopyVerdict;
import dev.railyard.collect.PciCollector;
import dev.railyard.model.Finding;
import dev.railyard.model.PciDevice;
import dev.railyard.model.PcieLink;
import dev.railyard.model.RailyardException;
import dev.railyard.nativelib.CudaLibraries;
import dev.railyard.nativelib.FfmCuda;
import dev.railyard.platform.HostRoot;
import dev.railyard.report.FindingsText;
import dev.railyard.report.Json;
import dev.railyard.platform.NodeLock;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;

@Command(name = "gpu",
        mixinStandardHelpOptions = true,
        description = {
                "GPU copy bandwidth: host<->device per GPU and the GPU-to-GPU peer matrix.",
                "",
                "Per GPU: host-to-device and device-to-host copy bandwidth from pinned memory, a copy within the "
                        + "GPU, and the GPU-to-GPU peer copy matrix (NVLink or PCIe). Flags a GPU whose host copies say its "
                        + "PCIe link trained down (bench.gpu.pcie)."},
        footer = {"", "Examples:", "  railyard bench gpu", "  railyard bench gpu --devices 0,1 --size 1G --format json"})
public final class BenchGpuCommand implements Callable<Integer> {

    @Option(names = "--size", defaultValue = "256M", converter = ByteSizeConverter.class, description = "Bytes per copy (default ${DEFAULT-VALUE}).")
    long size;

    @Option(names = "--iters", defaultValue = "20", description = "Timed copies per measurement (default ${DEFAULT-VALUE}).")
    int iters;

    @Option(names = "--devices", split = ",", description = "CUDA devices to measure (default: all).")
    List<Integer> devices;

    @Option(names = "--no-peer", description = "Skip the GPU-to-GPU matrix.")
    boolean noPeer;

    @Mixin
    FormatOption output = new FormatOption();

    @Spec
    CommandSpec spec;

    @Mixin
    NodeLockOption nodeLock;

    @Override
    public Integer call() {
        // the arguments first: a typo is answered without loading CUDA or touching a GPU, and before the node's lock,
        // so a typo while another benchmark runs is a usage error (2), not a busy node (3)
        if (size < 1) throw new RailyardException.Usage("--size must be at least 1 byte", "e.g. --size 256M");
        if (iters < 1) throw new RailyardException.Usage("--iters must be at least 1", "e.g. --iters 20");
        if (devices != null && devices.stream().anyMatch(d -> d < 0)) {
            throw new RailyardException.Usage("--devices " + devices + ": CUDA devices count from 0", "e.g. --devices 0,1");
        }
        FfmCuda cuda = CudaLibraries.cudart();
        int count = cuda.deviceCount();
        int[] chosen = devices == null ? IntStream.range(0, count).toArray()
                : devices.stream().mapToInt(Integer::intValue).toArray();
        for (int d : chosen) {
            if (d < 0 || d >= count) throw new RailyardException.Usage("GPU " + d + " does not exist (" + count + " found)", "see railyard inventory");
        }
        GpuCopyResult.Run run;
        try (NodeLock held = nodeLock.acquire("bench gpu")) {
            run = new GpuCopyBenchmark(cuda, size, iters).run(chosen, !noPeer, pcieLinks());
        }
        List<Finding> findings = GpuCopyVerdict.judge(run);
        PrintWriter out = spec.commandLine().getOut();
        if (output.json()) {
            out.println(Json.write(Map.of("run", run, "findings", findings)));
        } else {
            print(out, run);
            out.print(FindingsText.render("this node", findings));
        }
        out.flush();
        return ExitCodes.of(findings);
    }

    private static Map<String, PcieLink> pcieLinks() {
        Map<String, PcieLink> links = new HashMap<>();
        for (PciDevice d : new PciCollector().collect(HostRoot.live())) {
            d.link().optional().ifPresent(l -> links.put(d.address().toLowerCase(Locale.ROOT), l));
        }
        return links;
    }

    private static void print(PrintWriter out, GpuCopyResult.Run run) {
        out.printf(Locale.ROOT, "# railyard bench gpu: %d MiB per copy, %d copies per measurement, GB/s = 10^9 B/s%n",
                run.bytes() >> 20, run.iters());
        out.println("  GPU  bus id          H2D GB/s  D2H GB/s  D2D GB/s  slot maximum");
        for (GpuCopyResult g : run.gpus()) {
            out.printf(Locale.ROOT, "  %3d  %-14s  %8.1f  %8.1f  %8.1f  %s%n", g.device(), g.pciBusId(), g.h2dGBps(),
                    g.d2hGBps(), g.d2dGBps(), g.pcieMaxLink().map(l -> l + String.format(Locale.ROOT, " (%.1f GB/s)",
                            g.pcieMaxGBps().orElse(0.0))).orElse("unknown"));
        }
        int n = run.gpus().size();
        if (n > 1 && run.peerGBps()[0].length == n) {
            out.println();
            out.println("  peer copy GB/s (row -> column; * = no direct peer access, staged through the host)");
            StringBuilder head = new StringBuilder("        ");
            for (GpuCopyResult g : run.gpus()) head.append(String.format(Locale.ROOT, "%9s", "GPU" + g.device()));
            out.println(head);
            for (int i = 0; i < n; i++) {
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "  %-6s", "GPU" + run.gpus().get(i).device()));
                for (int j = 0; j < n; j++) {
                    row.append(i == j ? String.format("%9s", "-") : String.format(Locale.ROOT, "%8.1f%s",
                            run.peerGBps()[i][j], run.peerAccess()[i][j] ? " " : "*"));
                }
                out.println(row);
            }
        }
        out.println();
    }
}

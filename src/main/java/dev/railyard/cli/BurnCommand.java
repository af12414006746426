package dev.railyard.cli;

import dev.railyard.bench.burn.BurnOptions;
import dev.railyard.bench.burn.BurnProgress;
import dev.railyard.bench.burn.GpuBurn;
import dev.railyard.check.BurnVerdict;
import dev.railyard.collect.KernelLogCollector;
import dev.railyard.model.BurnResult;
import dev.railyard.model.BurnResult.Precision;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.GpuSensors;
import dev.railyard.model.RailyardException;
import dev.railyard.model.Reading;
import dev.railyard.nativelib.CudaLibraries;
import dev.railyard.nativelib.FfmCublasLt;
import dev.railyard.nativelib.FfmCuda;
import dev.railyard.nativelib.FfmNvml;
import dev.railyard.nativelib.NvmlLoad;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;
import dev.railyard.report.BurnText;
import dev.railyard.report.FindingsText;
import dev.railyard.report.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;

@Command(name = "burn",
        mixinStandardHelpOptions = true,
        description = {
                "Every GPU of this node under full load: matrix multiplies (cuBLASLt), judged as acceptance tests do.",
                "",
                "Each GPU multiplies the same seeded 8192 x 8192 matrices over and over, its results filling 95 %% of "
                        + "its memory, in FP8 and BF16 where it has them, else FP32 (the duration split between them), "
                        + "sampled every second through NVML. A GPU fails when it is more than --tolerance slower than "
                        + "the best (burn.speed), shows a HW or thermal slowdown or power brake (burn.throttle), gets a new "
                        + "Xid, ECC error or row remap (burn.errors), or computes other results than the other GPUs or "
                        + "the CPU on a tile (burn.checksum). The node's peak power is set beside plan power's "
                        + "node_power (burn.power). Ctrl-C stops it and keeps what was measured (exit 1)."},
        footer = {"", "Examples:", "  railyard burn --duration 10m",
                "  railyard burn --duration 60s --precision fp32 --devices 0,1 --format json",
                "  railyard burn --duration 30m --tolerance 5 --host-watts 1500"})
public final class BurnCommand implements Callable<Integer> {

    @Option(names = "--duration", defaultValue = "5m", converter = PositiveDurationConverter.class,
            description = "How long the GPUs are loaded (default ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--tolerance", defaultValue = "10", paramLabel = "PERCENT",
            description = "How far below the node's best GPU a GPU may be, in %% (default ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(names = "--precision", split = ",", paramLabel = "fp8|bf16|fp32",
            description = "Input precisions, each for an equal share of the duration (default: fp8,bf16 from "
                    + "compute capability 8.9, bf16 from 8.0, else fp32).")
    List<String> precisions;

    @Option(names = "--devices", split = ",", description = "CUDA devices to load (default: all).")
    List<Integer> devices;

    @Option(names = "--matrix", defaultValue = "8192", description = "Side of the square matrices (default ${DEFAULT-VALUE}).")
    int matrix;

    @Option(names = "--gpu-watts", description = "plan power's GPU figure (default: the GPUs' enforced power limit).")
    Double gpuWatts;

    @Option(names = "--host-watts", defaultValue = "0", description = "plan power's per-node power besides GPUs, W (default ${DEFAULT-VALUE}).")
    double hostWatts;

    @Mixin
    FormatOption output = new FormatOption();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        // the arguments first: a typo is answered without loading CUDA or touching a GPU
        if (!(tolerance > 0 && tolerance < 100)) {
            throw new RailyardException.Usage("--tolerance " + tolerance + " is not between 0 and 100 %", "e.g. --tolerance 10");
        }
        if (matrix < 256 || matrix % 16 != 0 || matrix > 32768) {
            throw new RailyardException.Usage("--matrix " + matrix + ": a multiple of 16 from 256 to 32768",
                    "e.g. --matrix 8192 (as gpu-burn and gpu-fryer)");
        }
        if (gpuWatts != null && !(gpuWatts > 0)) throw new RailyardException.Usage("--gpu-watts must be above 0", "e.g. --gpu-watts 700");
        if (hostWatts < 0) throw new RailyardException.Usage("--host-watts must be 0 or more", "e.g. --host-watts 1500");
        if (devices != null && devices.stream().anyMatch(d -> d < 0)) {
            throw new RailyardException.Usage("--devices " + devices + ": CUDA devices count from 0", "e.g. --devices 0,1");
        }
        BurnOptions options = new BurnOptions(duration, parsePrecisions(), devices == null ? List.of() : devices,
                matrix, tolerance, Duration.ofSeconds(1),
                gpuWatts == null ? OptionalDouble.empty() : OptionalDouble.of(gpuWatts), hostWatts, BurnOptions.DEFAULT_SEED);
        FfmCuda cuda = CudaLibraries.cudart();
        FfmCublasLt lt = CudaLibraries.cublasLt();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter progress = output.json() ? spec.commandLine().getErr() : out;
        NvmlLoad load = nvmlOverride().map(FfmNvml::open).orElseGet(FfmNvml::open);
        Supplier<Reading<List<Gpu>>> nvml = switch (load) {
            case NvmlLoad.Ready r -> () -> r.nvml().gpus(false);
            case NvmlLoad.Unavailable u -> () -> Reading.absent("NVML unavailable: " + u.reason());
        };
        Function<List<String>, Reading<List<GpuSensors>>> sensors = switch (load) {
            case NvmlLoad.Ready r -> r.nvml().sensors()::read;
            case NvmlLoad.Unavailable u -> pci -> Reading.absent("NVML unavailable: " + u.reason());
        };
        KernelLogCollector kernelLog = new KernelLogCollector();
        BurnResult result;
        try {
            result = new GpuBurn(cuda, lt, nvml, sensors, () -> kernelLog.collect(HostRoot.live()), Clock.system())
                    .run(options, Interrupts.token(), new LiveLines(progress, System.console() != null && !output.json()));
        } finally {
            if (load instanceof NvmlLoad.Ready r) r.nvml().close();
        }
        List<Finding> findings = BurnVerdict.judge(result);
        if (output.json()) {
            out.println(Json.write(new BurnReport(result, BurnVerdict.perGpu(result, findings), findings)));
        } else {
            out.print(BurnText.summary(result));
            out.print(FindingsText.render("this node", findings));
        }
        out.flush();
        int code = ExitCodes.of(findings);
        return result.complete() ? code : ExitCodes.FAIL_FINDING;
    }

    /** The JSON document: what was measured, each GPU's verdict, the findings (docs/burn.md). */
    public record BurnReport(BurnResult burn, List<BurnVerdict.GpuVerdict> gpus, List<Finding> findings) {}

    private List<Precision> parsePrecisions() {
        if (precisions == null) return List.of();
        return precisions.stream().map(p -> switch (p.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "fp8" -> Precision.FP8;
            case "bf16" -> Precision.BF16;
            case "fp32" -> Precision.FP32;
            default -> throw new RailyardException.Usage("--precision " + p + ": one of fp8, bf16, fp32", "e.g. --precision bf16");
        }).distinct().toList();
    }

    /** RAILYARD_NVML names an NVML library file to load instead of the driver's (a test's fake). */
    private static java.util.Optional<Path> nvmlOverride() {
        String v = System.getenv("RAILYARD_NVML");
        return v == null || v.isBlank() ? java.util.Optional.empty() : java.util.Optional.of(Path.of(v));
    }

    /** One line per GPU: redrawn in place on a terminal, else printed every 10 s. */
    private static final class LiveLines implements BurnProgress {
        private final PrintWriter w;
        private final boolean redraw;
        private int drawn;
        private long printed;

        LiveLines(PrintWriter w, boolean redraw) {
            this.w = w;
            this.redraw = redraw;
        }

        @Override
        public void phase(Precision precision, Duration length) {
            w.println("  " + precision + " for " + length.toSeconds() + " s");
            drawn = 0;
            w.flush();
        }

        @Override
        public void sampled(double at, Map<Integer, BurnResult.Sample> samples) {
            if (!redraw && printed++ % 10 != 9) return;
            if (redraw && drawn > 0) w.print("\033[" + drawn + "F");
            samples.forEach((device, s) -> w.println((redraw ? "\033[2K" : "") + BurnText.live(device, s)));
            drawn = samples.size();
            w.flush();
        }
    }
}

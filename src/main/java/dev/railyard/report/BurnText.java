package dev.railyard.report;

import dev.railyard.model.BurnResult;
import dev.railyard.model.BurnResult.Phase;
import dev.railyard.model.BurnResult.Sample;
import dev.railyard.model.Reading;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code railyard burn} as text: the live line of each GPU while it runs, and the summary at the end, one row per
 * GPU and precision as gpu-fryer prints it (TFLOP/s mean, min and max, temperatures, power, clocks, checksum).
 */
public final class BurnText {

    private BurnText() {
    }

    /** "GPU0 0000:1b:00.0  FP8  1234.5 TFLOP/s  1980 MHz  690 W  71 °C (mem 80 °C)  SW_POWER_CAP". */
    public static String live(int device, Sample s) {
        return String.format(Locale.ROOT, "  GPU%-2d %5.0f s %-4s %8s TFLOP/s %5s MHz %5s W %4s °C (mem %s °C) %s", device,
                s.atSeconds(), s.precision(), number(s.tflops(), "%.1f"), number(s.smClockMhz(), "%d"),
                number(s.powerWatts(), "%.0f"), number(s.temperatureC(), "%d"), number(s.memoryTemperatureC(), "%d"),
                s.clockEvents().optional().map(e -> e.stream().map(Enum::name).filter(n -> !n.equals("GPU_IDLE"))
                        .reduce((a, b) -> a + "," + b).orElse("")).orElse("events " + s.clockEvents().describe()));
    }

    public static String summary(BurnResult r) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "# railyard burn: %d GPU%s, %d x %d matrix multiplies (FP32 results), %.0f of %d s%s%n",
                r.gpus().size(), r.gpus().size() == 1 ? "" : "s", r.matrixSize(), r.matrixSize(), r.ran().toMillis() / 1e3,
                r.asked().toSeconds(), r.complete() ? "" : " (" + r.stopped() + ": what was measured until then)"));
        b.append("  GPU  bus id        prec  TFLOP/s    min    max  sustained  max W  max °C  mem °C  min SM MHz  result CRC-32C\n");
        for (BurnResult.Gpu g : r.gpus()) {
            for (Phase p : g.phases()) {
                List<Sample> ss = g.samples().stream().filter(s -> s.precision() == p.precision()).toList();
                b.append(String.format(Locale.ROOT, "  %3d  %-12s  %-4s %8.1f %6s %6s %10.1f %6s %7s %7s %11s  %s%n",
                        g.device(), g.pciAddress(), p.precision(), p.tflops(), number(p.minTflops(), "%.0f"),
                        number(p.maxTflops(), "%.0f"), p.sustainedTflops(), max(ss, Sample::powerWatts, "%.0f"),
                        max(ss, Sample::temperatureC, "%d"), max(ss, Sample::memoryTemperatureC, "%d"),
                        min(ss, Sample::smClockMhz), p.checksum().optional()
                                .map(c -> String.format(Locale.ROOT, "%08x", c.crc32c())).orElse("-")));
            }
            g.loadFailure().optional().ifPresent(f -> b.append("  ").append(g.subject()).append(": load failed: ")
                    .append(f).append('\n'));
        }
        BurnResult.NodePower power = r.power();
        b.append(String.format(Locale.ROOT, "  node: peak %s W of GPUs (NVML, the largest sum in one sample); plan power's "
                        + "node_power %s W%s%n", number(power.peakWatts(), "%.0f"), number(power.planWatts(), "%.0f"),
                power.planBasis().isEmpty() ? "" : " (" + power.planBasis() + ")"));
        b.append(String.format(Locale.ROOT, "  sampling: %d samples a GPU, %.3f %% of one CPU core%n%n",
                r.sampler().samples(), r.sampler().percentOfOneCore()));
        return b.toString();
    }

    private static <T> String number(Reading<T> r, String format) {
        return r.optional().map(v -> String.format(Locale.ROOT, format, v)).orElse("-");
    }

    private static <T extends Number> String max(List<Sample> ss, Function<Sample, Reading<T>> f, String format) {
        Optional<Double> m = ss.stream().flatMap(s -> f.apply(s).optional().stream()).map(Number::doubleValue)
                .max(Double::compare);
        return m.map(v -> format.equals("%d") ? String.valueOf(Math.round(v)) : String.format(Locale.ROOT, format, v))
                .orElse("-");
    }

    private static String min(List<Sample> ss, Function<Sample, Reading<Integer>> f) {
        return ss.stream().flatMap(s -> f.apply(s).optional().stream()).min(Integer::compare).map(String::valueOf).orElse("-");
    }
}

package dev.railyard.bench.burn;

import dev.railyard.model.BurnResult.Precision;
import dev.railyard.model.BurnResult.Sample;
import dev.railyard.model.GpuSensors;
import dev.railyard.model.Reading;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One sample a second of every loaded GPU: its TFLOP/s since the last sample (from its {@link LoadCounter}) and what
 * NVML reads (clocks, power, temperatures, clock-event reasons) through the light per-field read of the loaded GPUs
 * only, never the full read of every field of every GPU (that one runs once before the load and once after it).
 * Keeps every sample, the node's peak power (the largest sum over GPUs within one sample) and the CPU time sampling
 * cost its own thread.
 */
final class BurnSampler {

    /** A loaded GPU as the sampler sees it: CUDA device, PCI address to find it in NVML's list, its counter. */
    record Target(int device, String pciAddress, LoadCounter counter) {}

    private final List<Target> targets;
    private final Function<List<String>, Reading<List<GpuSensors>>> sensors;
    private final List<String> addresses;
    private final Map<Integer, List<Sample>> samples;
    private final LoadCounter.Snapshot[] last;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private double peakWatts = Double.NaN;
    private String noPower = "no sample yet";
    private long count;
    private long cpuNanos;

    /** @param sensors the sampled readings of the GPUs at these PCI addresses, in their order, or why there are none */
    BurnSampler(List<Target> targets, Function<List<String>, Reading<List<GpuSensors>>> sensors,
                Map<Integer, List<Sample>> samples) {
        this.targets = targets;
        this.sensors = sensors;
        this.addresses = targets.stream().map(Target::pciAddress).toList();
        this.samples = samples;
        this.last = new LoadCounter.Snapshot[targets.size()];
        java.util.Arrays.fill(last, LoadCounter.Snapshot.ZERO);
    }

    /** Takes one sample of every GPU at {@code atSeconds} into the run, in {@code precision}'s phase; returns them. */
    Map<Integer, Sample> sample(double atSeconds, Precision precision) {
        long cpu = threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : -1;
        Reading<List<GpuSensors>> read = sensors.apply(addresses);
        Map<Integer, Sample> taken = new java.util.LinkedHashMap<>();
        double watts = 0;
        boolean allPower = true;
        for (int i = 0; i < targets.size(); i++) {
            Target t = targets.get(i);
            LoadCounter.Snapshot now = t.counter().read();
            double tf = now.tflopsSince(last[i]);
            last[i] = now;
            Reading<Double> tflops = Double.isNaN(tf) ? Reading.absent("no multiply finished in this second") : Reading.of(tf);
            GpuSensors gpu = sensorsOf(read, i, t.pciAddress());
            Sample s = new Sample(atSeconds, precision, tflops, gpu.smClockMhz(), gpu.memoryClockMhz(),
                    gpu.powerWatts(), gpu.temperatureC(), gpu.memoryTemperatureC(), gpu.clockEvents());
            taken.put(t.device(), s);
            samples.get(t.device()).add(s);
            if (s.powerWatts() instanceof Reading.Present<Double>(Double w)) watts += w;
            else {
                allPower = false;
                noPower = "GPU" + t.device() + " power: " + s.powerWatts().describe();
            }
        }
        if (allPower && !targets.isEmpty()) peakWatts = Double.isNaN(peakWatts) ? watts : Math.max(peakWatts, watts);
        count++;
        if (cpu >= 0) cpuNanos += threads.getCurrentThreadCpuTime() - cpu;
        return taken;
    }

    /** The {@code i}th GPU's readings, or the read's reason on every field when there are none. */
    private static GpuSensors sensorsOf(Reading<List<GpuSensors>> read, int i, String pci) {
        if (!(read instanceof Reading.Present<List<GpuSensors>>(List<GpuSensors> all))) return GpuSensors.unread(pci, read);
        if (i < all.size() && all.get(i).pciAddress().equals(pci)) return all.get(i);
        return GpuSensors.unread(pci, Reading.absent("NVML's sample has no GPU at " + pci));
    }

    /** The largest sum of all GPUs' power in one sample; absent when no sample had every GPU's power. */
    Reading<Double> peakWatts() {
        return Double.isNaN(peakWatts) ? Reading.absent(noPower) : Reading.of(peakWatts);
    }

    long count() {
        return count;
    }

    double cpuSeconds() {
        return cpuNanos / 1e9;
    }
}

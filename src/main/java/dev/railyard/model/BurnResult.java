package dev.railyard.model;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What {@code railyard burn} measured on one node: every GPU loaded by a matrix multiply for a while, sampled each
 * second. Facts only; {@code check.BurnVerdict} judges them. docs/burn.md describes the JSON this record is written as.
 *
 * @param asked    the --duration asked for
 * @param ran      how long the GPUs were loaded (shorter when stopped)
 * @param complete false when a stop signal or a failed GPU ended the run before {@code asked}
 * @param stopped  why it ended early, empty when complete
 * @param newXids  Xid lines the kernel logged while the GPUs were loaded (absent or failed when the log was unreadable)
 */
public record BurnResult(
        Instant started,
        Duration asked,
        Duration ran,
        boolean complete,
        String stopped,
        int matrixSize,
        double tolerancePercent,
        List<Gpu> gpus,
        NodePower power,
        Reading<List<XidEvent>> newXids,
        SamplerCost sampler) {

    /**
     * The input precision of a phase; accumulation and results are FP32 in each that {@code railyard burn} loads.
     * FP64 is only read from other tools' output (gpu-burn -d): burn does not load in it.
     */
    public enum Precision { FP8, BF16, FP32, FP64 }

    /**
     * One GPU: its phases (one per precision, in order), its one-second samples, and its error counters read before
     * the load and after it. {@code loadFailure} is absent when the load ran to its end, else what the GPU answered.
     */
    public record Gpu(
            int device,
            String pciAddress,
            Reading<String> name,
            int computeCapability,
            List<Phase> phases,
            List<Sample> samples,
            Reading<dev.railyard.model.Gpu.EccCounts> eccBefore,
            Reading<dev.railyard.model.Gpu.EccCounts> eccAfter,
            Reading<dev.railyard.model.Gpu.RemappedRows> remapBefore,
            Reading<dev.railyard.model.Gpu.RemappedRows> remapAfter,
            Reading<String> loadFailure) {

        public String subject() {
            return "GPU" + device + " (" + pciAddress + ")";
        }
    }

    /**
     * One precision on one GPU. {@code tflops} is the multiplies' floating-point work over the GPU time they took
     * (CUDA events around each batch); {@code sustainedTflops} the same work over the wall time of the phase, as
     * gpu-burn counts; min and max are over the one-second samples.
     */
    public record Phase(
            Precision precision,
            long multiplies,
            double gpuSeconds,
            double wallSeconds,
            double tflops,
            double sustainedTflops,
            Reading<Double> minTflops,
            Reading<Double> maxTflops,
            int resultSlots,
            Reading<Checksum> checksum) {}

    /**
     * The results of one phase: every multiply had the same seeded inputs, so every slot of the ring holds the same
     * matrix. {@code crc32c} is the last result's; {@code slotsDiffering} counts the other slots read back whose CRC
     * differs from it; the tile is the top-left {@code tileSize} square compared with a CPU multiply of the same inputs.
     */
    public record Checksum(long crc32c, int slotsCompared, int slotsDiffering, int tileSize, long tileMismatches,
                           double tileMaxRelativeError) {}

    /** One second of one GPU. {@code tflops} is absent when no multiply finished in that second. */
    public record Sample(
            double atSeconds,
            Precision precision,
            Reading<Double> tflops,
            Reading<Integer> smClockMhz,
            Reading<Integer> memoryClockMhz,
            Reading<Double> powerWatts,
            Reading<Integer> temperatureC,
            Reading<Integer> memoryTemperatureC,
            Reading<List<dev.railyard.model.Gpu.ClockEvent>> clockEvents) {}

    /**
     * The node's measured peak (the largest sum of all GPUs' power in one sample; NVML sees the GPUs only) beside
     * {@code plan power}'s node_power for this node, with what that figure assumed.
     */
    public record NodePower(Reading<Double> peakWatts, Reading<Double> planWatts, String planBasis) {}

    /** What the one-second NVML sampling cost: CPU time of the sampling thread over the run's wall time. */
    public record SamplerCost(long samples, double cpuSeconds, double wallSeconds) {
        public double percentOfOneCore() {
            return wallSeconds <= 0 ? 0 : 100 * cpuSeconds / wallSeconds;
        }
    }
}

package dev.railyard.model;

import java.util.List;

/**
 * The readings of one GPU that change from second to second under load: what a one-second sample of {@code railyard
 * burn} keeps. The same fields, read through the same NVML functions, as {@link Gpu} carries; the rest of a {@link Gpu}
 * (identity, memory, links, counters) does not change within a run and is read once before and once after it.
 */
public record GpuSensors(
        String pciAddress,
        Reading<Integer> smClockMhz,
        Reading<Integer> memoryClockMhz,
        Reading<Double> powerWatts,
        Reading<Integer> temperatureC,
        Reading<Integer> memoryTemperatureC,
        Reading<List<Gpu.ClockEvent>> clockEvents) {

    /** A GPU NVML does not answer for: every reading is {@code why}, an absent or failed reading. */
    public static GpuSensors unread(String pciAddress, Reading<?> why) {
        return new GpuSensors(pciAddress, same(why), same(why), same(why), same(why), same(why), same(why));
    }

    private static <T> Reading<T> same(Reading<?> why) {
        return switch (why) {
            case Reading.Present<?> p -> throw new IllegalArgumentException("a present reading is no reason: " + p);
            case Reading.Absent<?>(String reason) -> Reading.absent(reason);
            case Reading.Failed<?>(String path, String cause) -> Reading.failed(path, cause);
        };
    }
}

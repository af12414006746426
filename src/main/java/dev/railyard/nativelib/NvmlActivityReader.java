package dev.railyard.nativelib;

import dev.railyard.model.Gpu.Activity;
import dev.railyard.model.Reading;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * One GPU's {@link Activity}: utilisation, the memory clock, and one nvmlDeviceGetFieldValues call for memory
 * temperature, energy, and the PCIe and NVLink byte counters (the field values answer each field on its own, so one
 * the GPU lacks leaves only that reading absent). PCIe traffic is a rate of NVML's byte counters between two reads
 * ({@link CounterRates}), not nvmlDeviceGetPcieThroughput, which blocks 20 ms per direction and GPU. The profiling
 * ratios come from GPM ({@link NvmlGpm}) between this read and the last.
 */
final class NvmlActivityReader {

    private static final int[][] FIELDS = {
            {NvmlLayouts.FI_MEMORY_TEMP, 0},
            {NvmlLayouts.FI_TOTAL_ENERGY_CONSUMPTION, 0},
            {NvmlLayouts.FI_PCIE_COUNT_TX_BYTES, 0},
            {NvmlLayouts.FI_PCIE_COUNT_RX_BYTES, 0},
            {NvmlLayouts.FI_NVLINK_THROUGHPUT_DATA_TX, NvmlLayouts.SCOPE_ALL_LINKS},
            {NvmlLayouts.FI_NVLINK_THROUGHPUT_DATA_RX, NvmlLayouts.SCOPE_ALL_LINKS}};

    private final NvmlFunctions f;
    private final CounterRates rates;
    private final NvmlGpm gpm;

    NvmlActivityReader(NvmlFunctions functions, CounterRates rates, NvmlGpm gpm) {
        this.f = functions;
        this.rates = rates;
        this.gpm = gpm;
    }

    /** A field's value, or why there is none. */
    private record Field(Reading<Long> value, long timestampMicros) {}

    Activity read(Arena arena, MemorySegment dev, String busId) {
        MemorySegment util = arena.allocate(JAVA_INT, 2);
        int rc = f.call(NvmlSymbol.DEVICE_GET_UTILIZATION_RATES, dev, util);
        Reading<Integer> gpuUtil = rc == NvmlError.SUCCESS ? Reading.of(util.getAtIndex(JAVA_INT, 0))
                : f.error(NvmlSymbol.DEVICE_GET_UTILIZATION_RATES, rc).toReading();
        Reading<Integer> memUtil = rc == NvmlError.SUCCESS ? Reading.of(util.getAtIndex(JAVA_INT, 1))
                : f.error(NvmlSymbol.DEVICE_GET_UTILIZATION_RATES, rc).toReading();
        Field[] fields = fieldValues(arena, dev);
        return new Activity(gpuUtil, memUtil,
                engineUtil(arena, dev, NvmlSymbol.DEVICE_GET_ENCODER_UTILIZATION),
                engineUtil(arena, dev, NvmlSymbol.DEVICE_GET_DECODER_UTILIZATION),
                memoryClock(arena, dev),
                fields[0].value().map(Long::intValue),
                fields[1].value(),
                rate(busId + "/pcie-tx", fields[2]),
                rate(busId + "/pcie-rx", fields[3]),
                sum(fields[4].value(), fields[5].value()),
                gpm.read(arena, dev, busId));
    }

    private Reading<Integer> memoryClock(Arena arena, MemorySegment dev) {
        MemorySegment out = arena.allocate(JAVA_INT);
        int rc = f.call(NvmlSymbol.DEVICE_GET_CLOCK_INFO, dev, NvmlLayouts.CLOCK_MEM, out);
        if (rc != NvmlError.SUCCESS) return f.error(NvmlSymbol.DEVICE_GET_CLOCK_INFO, rc).toReading();
        return Reading.of(out.get(JAVA_INT, 0));
    }

    /** nvmlDeviceGetEncoderUtilization / DecoderUtilization: (device, unsigned *util, unsigned *samplingPeriodUs). */
    private Reading<Integer> engineUtil(Arena arena, MemorySegment dev, NvmlSymbol symbol) {
        MemorySegment out = arena.allocate(JAVA_INT, 2);
        int rc = f.call(symbol, dev, out, out.asSlice(4));
        if (rc != NvmlError.SUCCESS) return f.error(symbol, rc).toReading();
        return Reading.of(out.getAtIndex(JAVA_INT, 0));
    }

    private Field[] fieldValues(Arena arena, MemorySegment dev) {
        long size = NvmlLayouts.FIELD_VALUE.byteSize();
        MemorySegment values = arena.allocate(NvmlLayouts.FIELD_VALUE, FIELDS.length);
        for (int i = 0; i < FIELDS.length; i++) {
            values.set(JAVA_INT, i * size + NvmlLayouts.FIELD_ID_OFFSET, FIELDS[i][0]);
            values.set(JAVA_INT, i * size + NvmlLayouts.FIELD_SCOPE_OFFSET, FIELDS[i][1]);
        }
        int rc = f.call(NvmlSymbol.DEVICE_GET_FIELD_VALUES, dev, FIELDS.length, values);
        Field[] out = new Field[FIELDS.length];
        for (int i = 0; i < FIELDS.length; i++) {
            if (rc != NvmlError.SUCCESS) {
                out[i] = new Field(f.error(NvmlSymbol.DEVICE_GET_FIELD_VALUES, rc).toReading(), 0);
                continue;
            }
            MemorySegment v = values.asSlice(i * size, size);
            int fieldRc = v.get(JAVA_INT, NvmlLayouts.FIELD_RETURN_OFFSET);
            long at = v.get(JAVA_LONG, NvmlLayouts.FIELD_TIMESTAMP_OFFSET);
            if (fieldRc != NvmlError.SUCCESS) {
                NvmlError e = f.error(NvmlSymbol.DEVICE_GET_FIELD_VALUES, fieldRc);
                out[i] = new Field(new NvmlError(e.function() + " field " + FIELDS[i][0], fieldRc, e.text()).toReading(), at);
                continue;
            }
            out[i] = new Field(Reading.of(value(v)), at);
        }
        return out;
    }

    /** The union's value by its type; every field read here is a whole number. */
    static long value(MemorySegment v) {
        long off = NvmlLayouts.FIELD_VALUE_OFFSET;
        return switch (v.get(JAVA_INT, NvmlLayouts.FIELD_TYPE_OFFSET)) {
            case NvmlLayouts.VALUE_TYPE_DOUBLE -> (long) v.get(JAVA_DOUBLE, off);
            case NvmlLayouts.VALUE_TYPE_UNSIGNED_INT -> Integer.toUnsignedLong(v.get(JAVA_INT, off));
            case NvmlLayouts.VALUE_TYPE_SIGNED_INT -> v.get(JAVA_INT, off);
            case NvmlLayouts.VALUE_TYPE_UNSIGNED_SHORT -> Short.toUnsignedLong(v.get(JAVA_SHORT, off));
            default -> v.get(JAVA_LONG, off); // unsigned long, unsigned and signed long long
        };
    }

    private Reading<Double> rate(String key, Field field) {
        if (!(field.value() instanceof Reading.Present<Long>(Long bytes))) return field.value().map(x -> 0.0);
        return rates.perSecond(key, field.timestampMicros(), bytes);
    }

    private static Reading<Long> sum(Reading<Long> a, Reading<Long> b) {
        if (a instanceof Reading.Present<Long>(Long x) && b instanceof Reading.Present<Long>(Long y)) return Reading.of(x + y);
        return a.isPresent() ? b : a;
    }
}

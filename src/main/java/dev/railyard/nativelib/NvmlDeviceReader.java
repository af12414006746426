package dev.railyard.nativelib;

import dev.railyard.model.Gpu;
import dev.railyard.model.Gpu.ClockEvent;
import dev.railyard.model.Gpu.EccCounts;
import dev.railyard.model.Gpu.Memory;
import dev.railyard.model.Gpu.NvLink;
import dev.railyard.model.Gpu.RemappedRows;
import dev.railyard.model.PcieLink;
import dev.railyard.model.Reading;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Reads one GPU's readings from NVML. Each field is its own call, so one unsupported or failing query leaves
 * only that field absent or failed. All native memory of one GPU lives in one confined arena.
 */
final class NvmlDeviceReader {

    /** Why a reading of the NVLink error counters is absent when they were not asked for. */
    static final String LINK_ERRORS_NOT_READ =
            "NVLink error counters not read (144 NVML calls on an 8 x 18-link node: the agent reads them once a minute)";

    private final NvmlFunctions f;
    private final boolean linkErrors;
    private final NvmlActivityReader activity;

    NvmlDeviceReader(NvmlFunctions functions, boolean linkErrors, CounterRates rates, NvmlGpm gpm) {
        this.f = functions;
        this.linkErrors = linkErrors;
        this.activity = new NvmlActivityReader(functions, rates, gpm);
    }

    Gpu read(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int rc = f.call(NvmlSymbol.DEVICE_GET_HANDLE_BY_INDEX_V2, index, out);
            if (rc != NvmlError.SUCCESS) {
                return unreachable(index, f.error(NvmlSymbol.DEVICE_GET_HANDLE_BY_INDEX_V2, rc));
            }
            MemorySegment dev = out.get(ADDRESS, 0);
            String busId = pciAddress(arena, dev);
            return new Gpu(index, busId, Gpu.Source.NVML,
                    string(arena, dev, NvmlSymbol.DEVICE_GET_NAME, NvmlLayouts.NAME_BUFFER),
                    string(arena, dev, NvmlSymbol.DEVICE_GET_UUID, NvmlLayouts.UUID_BUFFER),
                    memory(arena, dev),
                    uintArg(arena, dev, NvmlSymbol.DEVICE_GET_TEMPERATURE, NvmlLayouts.TEMPERATURE_GPU),
                    uintArg(arena, dev, NvmlSymbol.DEVICE_GET_TEMPERATURE_THRESHOLD,
                            NvmlLayouts.TEMPERATURE_THRESHOLD_SLOWDOWN),
                    uint(arena, dev, NvmlSymbol.DEVICE_GET_POWER_USAGE).map(mw -> mw / 1000.0),
                    uint(arena, dev, NvmlSymbol.DEVICE_GET_ENFORCED_POWER_LIMIT).map(mw -> mw / 1000.0),
                    uintArg(arena, dev, NvmlSymbol.DEVICE_GET_CLOCK_INFO, NvmlLayouts.CLOCK_SM),
                    clockEvents(arena, dev),
                    ecc(arena, dev),
                    remappedRows(arena, dev),
                    pcieLink(arena, dev),
                    nvlinks(arena, dev),
                    uint(arena, dev, NvmlSymbol.DEVICE_GET_PERSISTENCE_MODE).map(m -> m == NvmlLayouts.FEATURE_ENABLED),
                    uint(arena, dev, NvmlSymbol.DEVICE_GET_PCIE_REPLAY_COUNTER).map(Integer::toUnsignedLong),
                    linkErrors ? nvlinkErrors(arena, dev) : Reading.absent(LINK_ERRORS_NOT_READ),
                    activity.read(arena, dev, busId));
        }
    }

    /**
     * NVML's "00000000:17:00.0" as sysfs writes it, "0000:17:00.0", so GPUs join PCI devices by address.
     * Domains wider than 16 bits (some VMs) keep all their digits.
     */
    static String normaliseBusId(String busId) {
        String s = busId.trim().toLowerCase(Locale.ROOT);
        int colon = s.indexOf(':');
        if (colon < 0 || s.indexOf(':', colon + 1) < 0) return s;
        try {
            long domain = Long.parseLong(s.substring(0, colon), 16);
            return String.format(Locale.ROOT, domain > 0xffff ? "%08x" : "%04x", domain) + s.substring(colon);
        } catch (NumberFormatException e) {
            return s;
        }
    }

    /** A GPU NVML counts but cannot open (fallen off the bus, lost): listed with the reason on every field. */
    private static Gpu unreachable(int index, NvmlError e) {
        return new Gpu(index, "unknown", Gpu.Source.NVML, e.toReading(), e.toReading(), e.toReading(),
                e.toReading(), e.toReading(), e.toReading(), e.toReading(), e.toReading(), e.toReading(),
                e.toReading(), e.toReading(), e.toReading(), e.toReading(), e.toReading(), e.toReading(), e.toReading(),
                Gpu.Activity.absent(e.function() + ": " + e.text()));
    }

    String pciAddress(Arena arena, MemorySegment dev) {
        MemorySegment pci = arena.allocate(NvmlLayouts.PCI_INFO);
        int rc = f.call(NvmlSymbol.DEVICE_GET_PCI_INFO_V3, dev, pci);
        if (rc != NvmlError.SUCCESS) return "unknown";
        return normaliseBusId(NvmlLayouts.cString(pci.asSlice(NvmlLayouts.PCI_BUS_ID_OFFSET, NvmlLayouts.PCI_BUS_ID_SIZE)));
    }

    private Reading<String> string(Arena arena, MemorySegment dev, NvmlSymbol symbol, int size) {
        MemorySegment buf = arena.allocate(size);
        int rc = f.call(symbol, dev, buf, size);
        if (rc != NvmlError.SUCCESS) return f.error(symbol, rc).toReading();
        return Reading.of(NvmlLayouts.cString(buf));
    }

    /** nvmlDeviceGetMemoryInfo_v2 as nvidia-smi counts (reserved apart from used); the first version on older drivers. */
    private Reading<Memory> memory(Arena arena, MemorySegment dev) {
        if (f.has(NvmlSymbol.DEVICE_GET_MEMORY_INFO_V2)) {
            MemorySegment m = arena.allocate(NvmlLayouts.MEMORY_V2);
            m.set(JAVA_INT, 0, NvmlLayouts.MEMORY_V2_VERSION);
            int rc = f.call(NvmlSymbol.DEVICE_GET_MEMORY_INFO_V2, dev, m);
            if (rc == NvmlError.SUCCESS) {
                return Reading.of(new Memory(m.get(JAVA_LONG, NvmlLayouts.MEMORY_V2_TOTAL_OFFSET),
                        m.get(JAVA_LONG, NvmlLayouts.MEMORY_V2_USED_OFFSET),
                        Reading.of(m.get(JAVA_LONG, NvmlLayouts.MEMORY_V2_RESERVED_OFFSET)),
                        m.get(JAVA_LONG, NvmlLayouts.MEMORY_V2_FREE_OFFSET)));
            }
            // else the first version answers for itself (a driver that knows _v2 but not this struct version)
        }
        MemorySegment m = arena.allocate(NvmlLayouts.MEMORY);
        int rc = f.call(NvmlSymbol.DEVICE_GET_MEMORY_INFO, dev, m);
        if (rc != NvmlError.SUCCESS) return f.error(NvmlSymbol.DEVICE_GET_MEMORY_INFO, rc).toReading();
        return Reading.of(new Memory(m.get(JAVA_LONG, NvmlLayouts.MEMORY_TOTAL_OFFSET),
                m.get(JAVA_LONG, NvmlLayouts.MEMORY_USED_OFFSET)));
    }

    /** A function (device, unsigned int *out). */
    Reading<Integer> uint(Arena arena, MemorySegment dev, NvmlSymbol symbol) {
        MemorySegment out = arena.allocate(JAVA_INT);
        int rc = f.call(symbol, dev, out);
        if (rc != NvmlError.SUCCESS) return f.error(symbol, rc).toReading();
        return Reading.of(out.get(JAVA_INT, 0));
    }

    /** A function (device, enum or index argument, unsigned int *out). */
    Reading<Integer> uintArg(Arena arena, MemorySegment dev, NvmlSymbol symbol, int arg) {
        MemorySegment out = arena.allocate(JAVA_INT);
        int rc = f.call(symbol, dev, arg, out);
        if (rc != NvmlError.SUCCESS) return f.error(symbol, rc).toReading();
        return Reading.of(out.get(JAVA_INT, 0));
    }

    Reading<List<ClockEvent>> clockEvents(Arena arena, MemorySegment dev) {
        NvmlSymbol symbol = f.has(NvmlSymbol.DEVICE_GET_CURRENT_CLOCKS_EVENT_REASONS)
                ? NvmlSymbol.DEVICE_GET_CURRENT_CLOCKS_EVENT_REASONS
                : NvmlSymbol.DEVICE_GET_CURRENT_CLOCKS_THROTTLE_REASONS;
        MemorySegment out = arena.allocate(JAVA_LONG);
        int rc = f.call(symbol, dev, out);
        if (rc != NvmlError.SUCCESS) return f.error(symbol, rc).toReading();
        return Reading.of(ClockEvent.fromMask(out.get(JAVA_LONG, 0)));
    }

    private Reading<EccCounts> ecc(Arena arena, MemorySegment dev) {
        int[][] queries = {
                {NvmlLayouts.MEMORY_ERROR_TYPE_CORRECTED, NvmlLayouts.VOLATILE_ECC},
                {NvmlLayouts.MEMORY_ERROR_TYPE_UNCORRECTED, NvmlLayouts.VOLATILE_ECC},
                {NvmlLayouts.MEMORY_ERROR_TYPE_CORRECTED, NvmlLayouts.AGGREGATE_ECC},
                {NvmlLayouts.MEMORY_ERROR_TYPE_UNCORRECTED, NvmlLayouts.AGGREGATE_ECC}};
        long[] counts = new long[queries.length];
        MemorySegment out = arena.allocate(JAVA_LONG);
        for (int i = 0; i < queries.length; i++) {
            int rc = f.call(NvmlSymbol.DEVICE_GET_TOTAL_ECC_ERRORS, dev, queries[i][0], queries[i][1], out);
            if (rc != NvmlError.SUCCESS) return f.error(NvmlSymbol.DEVICE_GET_TOTAL_ECC_ERRORS, rc).toReading();
            counts[i] = out.get(JAVA_LONG, 0);
        }
        return Reading.of(new EccCounts(counts[0], counts[1], counts[2], counts[3]));
    }

    private Reading<RemappedRows> remappedRows(Arena arena, MemorySegment dev) {
        MemorySegment out = arena.allocate(JAVA_INT, 4);
        int rc = f.call(NvmlSymbol.DEVICE_GET_REMAPPED_ROWS, dev, out, out.asSlice(4), out.asSlice(8), out.asSlice(12));
        if (rc != NvmlError.SUCCESS) return f.error(NvmlSymbol.DEVICE_GET_REMAPPED_ROWS, rc).toReading();
        return Reading.of(new RemappedRows(out.getAtIndex(JAVA_INT, 0), out.getAtIndex(JAVA_INT, 1),
                out.getAtIndex(JAVA_INT, 2) != 0, out.getAtIndex(JAVA_INT, 3) != 0));
    }

    private Reading<PcieLink> pcieLink(Arena arena, MemorySegment dev) {
        NvmlSymbol[] symbols = {NvmlSymbol.DEVICE_GET_CURR_PCIE_LINK_GENERATION,
                NvmlSymbol.DEVICE_GET_MAX_PCIE_LINK_GENERATION, NvmlSymbol.DEVICE_GET_CURR_PCIE_LINK_WIDTH,
                NvmlSymbol.DEVICE_GET_MAX_PCIE_LINK_WIDTH};
        int[] v = new int[symbols.length];
        for (int i = 0; i < symbols.length; i++) {
            MemorySegment out = arena.allocate(JAVA_INT);
            int rc = f.call(symbols[i], dev, out);
            if (rc != NvmlError.SUCCESS) return f.error(symbols[i], rc).toReading();
            v[i] = out.get(JAVA_INT, 0);
        }
        return Reading.of(new PcieLink(v[0], v[1], v[2], v[3]));
    }

    /** Links 0..17; NOT_SUPPORTED or INVALID_ARGUMENT for a link means that link does not exist on this GPU. */
    private Reading<List<NvLink>> nvlinks(Arena arena, MemorySegment dev) {
        List<NvLink> links = new ArrayList<>();
        MemorySegment out = arena.allocate(JAVA_INT);
        for (int link = 0; link < NvmlLayouts.NVLINK_MAX_LINKS; link++) {
            int rc = f.call(NvmlSymbol.DEVICE_GET_NVLINK_STATE, dev, link, out);
            if (rc == NvmlError.ERROR_NOT_SUPPORTED || rc == NvmlError.ERROR_INVALID_ARGUMENT) continue;
            if (rc != NvmlError.SUCCESS) return f.error(NvmlSymbol.DEVICE_GET_NVLINK_STATE, rc).toReading();
            links.add(new NvLink(link, out.get(JAVA_INT, 0) == NvmlLayouts.FEATURE_ENABLED));
        }
        return Reading.of(links);
    }

    /**
     * Replay, recovery, CRC flit and CRC data errors of links 0..17 (nvmlNvLinkErrorCounter_t 0..3); a link that
     * answers NOT_SUPPORTED or INVALID_ARGUMENT does not exist on this GPU.
     */
    private Reading<List<Gpu.NvLinkErrors>> nvlinkErrors(Arena arena, MemorySegment dev) {
        List<Gpu.NvLinkErrors> links = new ArrayList<>();
        MemorySegment out = arena.allocate(JAVA_LONG);
        long[] v = new long[4];
        for (int link = 0; link < NvmlLayouts.NVLINK_MAX_LINKS; link++) {
            boolean exists = true;
            for (int counter = 0; counter < v.length && exists; counter++) {
                int rc = f.call(NvmlSymbol.DEVICE_GET_NVLINK_ERROR_COUNTER, dev, link, counter, out);
                if (rc == NvmlError.ERROR_NOT_SUPPORTED || rc == NvmlError.ERROR_INVALID_ARGUMENT) exists = false;
                else if (rc != NvmlError.SUCCESS) return f.error(NvmlSymbol.DEVICE_GET_NVLINK_ERROR_COUNTER, rc).toReading();
                else v[counter] = out.get(JAVA_LONG, 0);
            }
            if (exists) links.add(new Gpu.NvLinkErrors(link, v[0], v[1], v[2], v[3]));
        }
        return Reading.of(links);
    }
}

package dev.railyard.nativelib;

import dev.railyard.model.GpuSensors;
import dev.railyard.model.Reading;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The readings a one-second sample of a loaded GPU keeps ({@link GpuSensors}), six NVML calls per GPU: the SM and
 * memory clocks, power, GPU temperature, the clock-event reasons, and the memory temperature field. A full read
 * ({@link FfmNvml#gpus(boolean)}) makes ten times as many (NVLink states, PCIe link, ECC, remapped rows, utilisation,
 * GPM), which under a burn's load cost 1.6-2.2 % of a core each second on 2 x H200. Each reading comes from the same
 * function, with the same conversion, as the full read's field of that name.
 *
 * <p>The GPUs' handles are looked up once, by PCI address, on the first read: NVML's handles stay valid as long as
 * the library is initialised, so later reads make only the six calls.
 */
public final class NvmlSensors {

    private final FfmNvml owner;
    private final NvmlFunctions f;
    private final NvmlDeviceReader fields;
    /** PCI address (as {@link NvmlDeviceReader#normaliseBusId} writes it) to handle; null until the first read. */
    private Map<String, MemorySegment> handles;

    NvmlSensors(FfmNvml owner, NvmlFunctions functions) {
        this.owner = owner;
        this.f = functions;
        this.fields = new NvmlDeviceReader(functions, false, new CounterRates(), new NvmlGpm(functions));
    }

    /** Each GPU of {@code pciAddresses}, in that order; a GPU NVML does not list is there with the reason. */
    public Reading<List<GpuSensors>> read(List<String> pciAddresses) {
        if (owner.isClosed()) return Reading.absent("NVML was shut down");
        if (handles == null) {
            Reading<Map<String, MemorySegment>> found = handles();
            if (!(found instanceof Reading.Present<Map<String, MemorySegment>>(Map<String, MemorySegment> h))) {
                return found.map(x -> List.of());
            }
            handles = h;
        }
        List<GpuSensors> out = new ArrayList<>(pciAddresses.size());
        try (Arena arena = Arena.ofConfined()) {
            for (String pci : pciAddresses) {
                MemorySegment dev = handles.get(NvmlDeviceReader.normaliseBusId(pci));
                out.add(dev == null ? GpuSensors.unread(pci, Reading.absent("NVML lists no GPU at " + pci))
                        : new GpuSensors(pci,
                        fields.uintArg(arena, dev, NvmlSymbol.DEVICE_GET_CLOCK_INFO, NvmlLayouts.CLOCK_SM),
                        fields.uintArg(arena, dev, NvmlSymbol.DEVICE_GET_CLOCK_INFO, NvmlLayouts.CLOCK_MEM),
                        fields.uint(arena, dev, NvmlSymbol.DEVICE_GET_POWER_USAGE).map(mw -> mw / 1000.0),
                        fields.uintArg(arena, dev, NvmlSymbol.DEVICE_GET_TEMPERATURE, NvmlLayouts.TEMPERATURE_GPU),
                        memoryTemperature(arena, dev),
                        fields.clockEvents(arena, dev)));
            }
        }
        return Reading.of(out);
    }

    /** Every GPU's handle by its PCI address; a GPU whose handle or address NVML does not give is left out. */
    private Reading<Map<String, MemorySegment>> handles() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            int rc = f.call(NvmlSymbol.DEVICE_GET_COUNT_V2, out);
            if (rc != NvmlError.SUCCESS) return f.error(NvmlSymbol.DEVICE_GET_COUNT_V2, rc).toReading();
            int count = out.get(JAVA_INT, 0);
            Map<String, MemorySegment> found = new LinkedHashMap<>();
            MemorySegment handle = arena.allocate(ADDRESS);
            for (int i = 0; i < count; i++) {
                if (f.call(NvmlSymbol.DEVICE_GET_HANDLE_BY_INDEX_V2, i, handle) != NvmlError.SUCCESS) continue;
                // the handle is NVML's pointer, valid until nvmlShutdown, not memory of this arena
                MemorySegment dev = handle.get(ADDRESS, 0);
                String pci = fields.pciAddress(arena, dev);
                if (!pci.equals("unknown")) found.put(pci, dev);
            }
            return Reading.of(found);
        }
    }

    /** NVML_FI_DEV_MEMORY_TEMP through nvmlDeviceGetFieldValues, as the full read's activity reads it. */
    private Reading<Integer> memoryTemperature(Arena arena, MemorySegment dev) {
        MemorySegment v = arena.allocate(NvmlLayouts.FIELD_VALUE);
        v.set(JAVA_INT, NvmlLayouts.FIELD_ID_OFFSET, NvmlLayouts.FI_MEMORY_TEMP);
        int rc = f.call(NvmlSymbol.DEVICE_GET_FIELD_VALUES, dev, 1, v);
        if (rc != NvmlError.SUCCESS) return f.error(NvmlSymbol.DEVICE_GET_FIELD_VALUES, rc).toReading();
        int fieldRc = v.get(JAVA_INT, NvmlLayouts.FIELD_RETURN_OFFSET);
        if (fieldRc != NvmlError.SUCCESS) {
            NvmlError e = f.error(NvmlSymbol.DEVICE_GET_FIELD_VALUES, fieldRc);
            return new NvmlError(e.function() + " field " + NvmlLayouts.FI_MEMORY_TEMP, fieldRc, e.text()).toReading();
        }
        return Reading.of((int) NvmlActivityReader.value(v));
    }
}

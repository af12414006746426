package dev.railyard.collect;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory.NvmlSystem;
import dev.railyard.model.Reading;

import java.util.List;

/** What a saved nvidia-smi -q -x says: the driver-wide versions and the GPUs in the order nvidia-smi lists them. */
public record NvidiaSmiXml(Reading<NvmlSystem> system, List<Gpu> gpus) {

    /** Where {@code railyard capture} saves the output, relative to the captured root. */
    public static final String CAPTURED_FILE = "railyard/nvidia-smi-q.xml";

    public NvidiaSmiXml {
        gpus = List.copyOf(gpus);
    }
}

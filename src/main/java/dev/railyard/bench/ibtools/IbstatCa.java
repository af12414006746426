package dev.railyard.bench.ibtools;

import java.util.List;

/** One channel adapter. caType and firmware are empty where the driver does not say (Omni-Path hfi1 does not). */
public record IbstatCa(String name, String caType, String firmware, List<IbstatPort> ports) {
    public IbstatCa {
        ports = List.copyOf(ports);
    }
}

package dev.railyard.bench.ibtools;

import java.util.List;

/** One hca_id block of ibv_devinfo. */
public record IbvDevice(String hcaId, String firmware, List<IbvPort> ports) {
    public IbvDevice {
        ports = List.copyOf(ports);
    }
}

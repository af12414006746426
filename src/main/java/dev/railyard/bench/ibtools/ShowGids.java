package dev.railyard.bench.ibtools;

import java.util.List;
import java.util.Optional;

/** show_gids output: its rows, and the n_gids_found trailer (-1 when the paste cut it off). */
public record ShowGids(List<GidEntry> entries, int gidsFound) {
    public ShowGids {
        entries = List.copyOf(entries);
    }

    /** The RoCE v2 GID carrying an IPv4 address on this device: the --gid-index perftest and NCCL want. */
    public Optional<GidEntry> roceV2Ipv4(String device) {
        return entries.stream()
                .filter(e -> e.device().equals(device) && e.version().equals("v2") && !e.ipv4().isEmpty())
                .findFirst();
    }
}

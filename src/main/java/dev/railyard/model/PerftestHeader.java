package dev.railyard.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The facts block perftest prints before its table ("Device : mlx5_3", "Link type : Ethernet", ...) and the QP
 * address lines under it. {@code fields} keeps every "key : value" pair as printed, in order of appearance,
 * for the facts this record does not type.
 */
public record PerftestHeader(
        String title,
        boolean bidirectional,
        Optional<String> device,
        OptionalInt qps,
        Optional<String> transport,
        Optional<String> connectionType,
        OptionalInt mtu,
        Optional<String> linkType,
        OptionalInt gidIndex,
        List<QpAddress> addresses,
        Map<String, String> fields) {

    public PerftestHeader {
        addresses = List.copyOf(addresses);
        fields = Map.copyOf(fields);
    }

    public Optional<QpAddress> local() {
        return addresses.stream().filter(a -> a.side() == QpAddress.Side.LOCAL).findFirst();
    }

    public Optional<QpAddress> remote() {
        return addresses.stream().filter(a -> a.side() == QpAddress.Side.REMOTE).findFirst();
    }

    public boolean isLatencyTest() {
        return title.contains("Latency") || title.contains("Lat Test");
    }
}

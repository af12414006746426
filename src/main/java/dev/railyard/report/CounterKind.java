package dev.railyard.report;

import java.util.Set;

/** Which InfiniBand port counters are traffic and which count trouble (shown only when non-zero). */
enum CounterKind {
    TRAFFIC, ERROR;

    /** Volume and congestion counters of counters/: everything else there counts an error or a drop. */
    private static final Set<String> TRAFFIC_NAMES = Set.of("port_rcv_data", "port_xmit_data", "port_rcv_packets",
            "port_xmit_packets", "unicast_rcv_packets", "unicast_xmit_packets", "multicast_rcv_packets",
            "multicast_xmit_packets", "port_xmit_wait");

    static CounterKind of(String name) {
        return TRAFFIC_NAMES.contains(name) ? TRAFFIC : ERROR;
    }

    /** hw_counters/ mixes request counts with errors; the error ones say so in their names (mlx5 naming). */
    static CounterKind ofHw(String name) {
        return name.matches(".*(err|out_of_buffer|out_of_sequence|timeout|retry|discard|drop).*") ? ERROR : TRAFFIC;
    }
}

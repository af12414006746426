package dev.railyard.model;

import com.fasterxml.jackson.annotation.JsonIgnore;

import java.util.List;
import java.util.Map;

/**
 * One port of an RDMA device. Counters keep the kernel's names and raw values; note that
 * {@code port_rcv_data} and {@code port_xmit_data} count 4-byte words (see {@link #rcvDataBytes()}).
 * {@code pkeys} are the non-zero entries of the port's P_Key table (ports/N/pkeys/*), in table order.
 */
public record RdmaPort(
        String device,
        int port,
        Reading<PortState> state,
        Reading<PortState> physState,
        Reading<LinkRate> rate,
        Reading<String> linkLayer,
        Reading<Integer> lid,
        Reading<Integer> smLid,
        List<Gid> gids,
        Map<String, Reading<Long>> counters,
        Map<String, Reading<Long>> hwCounters,
        Reading<List<Integer>> pkeys) {

    public RdmaPort {
        gids = List.copyOf(gids);
        counters = Map.copyOf(counters);
        hwCounters = Map.copyOf(hwCounters);
        pkeys = pkeys.map(List::copyOf);
    }

    /** A port whose P_Key table was not read (a pasted tool output, a port built in code). */
    public RdmaPort(String device, int port, Reading<PortState> state, Reading<PortState> physState,
                    Reading<LinkRate> rate, Reading<String> linkLayer, Reading<Integer> lid, Reading<Integer> smLid,
                    List<Gid> gids, Map<String, Reading<Long>> counters, Map<String, Reading<Long>> hwCounters) {
        this(device, port, state, physState, rate, linkLayer, lid, smLid, gids, counters, hwCounters,
                Reading.absent("the P_Key table was not read"));
    }

    /** A P_Key as the kernel and ibstat write it: "0xffff". */
    public static String pkeyText(int pkey) {
        return String.format("0x%04x", pkey);
    }

    public String ref() {
        return device + ":" + port;
    }

    public boolean isEthernet() {
        return linkLayer.optional().map(l -> l.equalsIgnoreCase("Ethernet")).orElse(false);
    }

    public boolean isInfiniband() {
        return linkLayer.optional().map(l -> l.equalsIgnoreCase("InfiniBand")).orElse(false);
    }

    public Reading<Long> rcvDataBytes() {
        return counter("port_rcv_data").map(words -> words * 4);
    }

    public Reading<Long> xmitDataBytes() {
        return counter("port_xmit_data").map(words -> words * 4);
    }

    public Reading<Long> counter(String name) {
        Reading<Long> r = counters.get(name);
        return r != null ? r : Reading.absent("no counter " + name);
    }

    /**
     * A port state file such as "4: ACTIVE" or a phys_state such as "5: LinkUp". The codes are the kernel's
     * (enum ib_port_state and the phys_state values of include/rdma/ib_verbs.h, as ib_core's sysfs.c writes them).
     */
    public record PortState(int code, String name) {
        public static final int DOWN = 1;
        /** Trained but not configured: on InfiniBand, no subnet manager has swept the port. */
        public static final int INIT = 2;
        public static final int ARMED = 3;
        public static final int ACTIVE = 4;
        public static final int ACTIVE_DEFER = 5;

        public static final int PHYS_SLEEP = 1;
        /** Looking for a peer: no cable, or nothing at its other end. */
        public static final int PHYS_POLLING = 2;
        public static final int PHYS_DISABLED = 3;
        public static final int PHYS_TRAINING = 4;
        public static final int PHYS_LINK_UP = 5;
        public static final int PHYS_LINK_ERROR_RECOVERY = 6;
        public static final int PHYS_PHY_TEST = 7;

        /** ib_port_state names by code, as the kernel writes them into state. */
        public static final List<String> STATE_NAMES = List.of("NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER");
        /** phys_state names by code, as the kernel writes them into phys_state. */
        public static final List<String> PHYS_STATE_NAMES = List.of("<unknown>", "Sleep", "Polling", "Disabled",
                "PortConfigurationTraining", "LinkUp", "LinkErrorRecovery", "Phy Test");

        /** As a port state: the port passes traffic. Not a field of the inventory's JSON. */
        @JsonIgnore
        public boolean isActive() {
            return code == ACTIVE;
        }
    }

    /** A rate file such as "40 Gb/sec (4X QDR)": the rate, the lane width ("4X") and the text as read. */
    public record LinkRate(double gbps, String width, String raw) {}

    /** One non-empty GID table entry with its type and the netdev it is bound to (RoCE). */
    public record Gid(int index, String gid, Reading<GidType> type, Reading<String> netdev) {}

    public enum GidType { IB, ROCE_V1, ROCE_V2 }

    /**
     * The width in bits of a PMA error counter (InfiniBand PortCounters: link_downed is 8 bits, symbol_error 16):
     * the kernel shows such a counter stuck at 2^bits - 1 once it saturates. Empty for counters not listed here.
     */
    public static java.util.OptionalInt counterBits(String counter) {
        return switch (counter) {
            case "symbol_error", "port_rcv_errors", "port_rcv_remote_physical_errors", "port_xmit_discards",
                 "port_rcv_switch_relay_errors" -> java.util.OptionalInt.of(16);
            case "link_downed", "link_error_recovery", "port_rcv_constraint_errors", "port_xmit_constraint_errors" ->
                    java.util.OptionalInt.of(8);
            case "local_link_integrity_errors", "excessive_buffer_overrun_errors" -> java.util.OptionalInt.of(4);
            default -> java.util.OptionalInt.empty();
        };
    }
}

package dev.railyard.agent;

import java.util.regex.Pattern;

/** What a finding's subject names, so health can be shown per GPU and per port. */
public enum ComponentKind {
    GPU, PORT, NETDEV, NODE;

    private static final Pattern PORT_REF = Pattern.compile("[A-Za-z0-9_.-]+:\\d+");

    /**
     * "GPU0 (0000:3b:00.0)" is a GPU, "mlx5_0:1" a port, the node's own name (alone or before a host setting, as in
     * "gpu01 net.core.rmem_max") the node, anything else a netdev.
     */
    public static ComponentKind ofSubject(String subject, String node) {
        if (subject.equals(node) || subject.startsWith(node + " ")) return NODE;
        if (subject.startsWith("GPU")) return GPU;
        if (PORT_REF.matcher(subject).matches()) return PORT;
        return NETDEV;
    }
}

package dev.railyard.model;

import java.util.List;
import java.util.Optional;

/**
 * What the NCCL INFO lines say about the network NCCL chose. NCCL tries IB first and falls back to sockets
 * when it finds no usable HCA ("NET/IB : No device found." or "Failed to open libibverbs.so[.1]"), and
 * multi-node traffic then runs over TCP at a fraction of the fabric's speed.
 */
public record NcclNet(
        List<IbNic> ibNics,
        List<String> socketInterfaces,
        List<String> plugins,
        List<String> usingNetwork,
        boolean ibNoDevice,
        boolean ibverbsMissing,
        boolean socketChannels,
        boolean ibChannels) {

    public NcclNet {
        ibNics = List.copyOf(ibNics);
        socketInterfaces = List.copyOf(socketInterfaces);
        plugins = List.copyOf(plugins);
        usingNetwork = List.copyOf(usingNetwork);
    }

    /** "[0]mlx5_0:1/IB": index, device, port and link layer ("IB" or "RoCE"). */
    public record IbNic(int index, String device, int port, String linkLayer) {}

    public enum Transport { IB, ROCE, SOCKET, FAST_SOCKET, OFI, OTHER }

    /** The transport NCCL used, judged from the strongest line present; empty when no line says. */
    public Optional<Transport> transport() {
        if (!usingNetwork.isEmpty()) {
            String last = usingNetwork.getLast();
            if (last.equals("IB")) return Optional.of(ibKind());
            if (last.equals("Socket")) return Optional.of(Transport.SOCKET);
            if (last.contains("FastSocket")) return Optional.of(Transport.FAST_SOCKET);
            if (last.contains("Libfabric") || last.contains("OFI")) return Optional.of(Transport.OFI);
            return Optional.of(Transport.OTHER);
        }
        if (socketChannels && !ibChannels) return Optional.of(Transport.SOCKET);
        if (!ibNics.isEmpty() || ibChannels) return Optional.of(ibKind());
        if (plugins.contains("FastSocket")) return Optional.of(Transport.FAST_SOCKET);
        if (plugins.contains("OFI")) return Optional.of(Transport.OFI);
        if (!socketInterfaces.isEmpty()) return Optional.of(Transport.SOCKET);
        return Optional.empty();
    }

    private Transport ibKind() {
        return !ibNics.isEmpty() && ibNics.stream().allMatch(n -> n.linkLayer().equals("RoCE"))
                ? Transport.ROCE : Transport.IB;
    }
}

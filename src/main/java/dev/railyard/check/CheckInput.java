package dev.railyard.check;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PciDevice;
import dev.railyard.model.RdmaPort;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** What a check judges: this node's inventory, the spec when one was given, and the node's name in that spec. */
public record CheckInput(NodeInventory inventory, Optional<ClusterSpec> spec, String node) {

    public CheckInput {
        Objects.requireNonNull(inventory);
        Objects.requireNonNull(spec);
        Objects.requireNonNull(node);
    }

    public static CheckInput withoutSpec(NodeInventory inventory) {
        return new CheckInput(inventory, Optional.empty(), inventory.hostname());
    }

    /** A spec network together with where it lands on this node. */
    public record Bound(ClusterSpec.Network network, ClusterSpec.Binding binding) {}

    /** The spec's networks that have a binding for this node, in spec order. */
    public List<Bound> bindings() {
        return spec.map(s -> s.networks().stream()
                        .filter(n -> n.bind().containsKey(node))
                        .map(n -> new Bound(n, n.bind().get(node)))
                        .toList())
                .orElse(List.of());
    }

    /** The binding for an RDMA port, if the spec names it. */
    public Optional<Bound> bindingFor(RdmaPort port) {
        return bindings().stream()
                .filter(b -> b.binding().rdma().map(r -> r.device().equals(port.device()) && r.port() == port.port())
                        .orElse(false))
                .findFirst();
    }

    /** The binding for a netdev, if the spec names it. */
    public Optional<Bound> bindingFor(String netdev) {
        return bindings().stream().filter(b -> b.binding().netdev().equals(netdev)).findFirst();
    }

    public List<RdmaPort> ports() {
        return inventory.rdmaDevices().stream().flatMap(d -> d.ports().stream()).toList();
    }

    public Optional<NetInterface> netdev(String name) {
        return inventory.interfaces().stream().filter(i -> i.name().equals(name)).findFirst();
    }

    /** The netdevs that carry this RDMA port (the RoCE netdev or the IPoIB child). */
    public List<NetInterface> netdevsOf(RdmaPort port) {
        return inventory.interfaces().stream()
                .filter(i -> i.rdmaPorts().stream().anyMatch(r -> r.device().equals(port.device()) && r.port() == port.port()))
                .toList();
    }

    /**
     * PCI functions whose vendor or class could not be read and that may be GPUs, as "address (why)": while there
     * is one, a GPU count is not known.
     */
    public List<String> possibleUnreadGpus() {
        return inventory.pciDevices().stream().filter(PciDevice::mayBeNvidiaGpu)
                .map(d -> d.address() + " (" + String.join("; ", d.unreadableIds()) + ")").toList();
    }

    /** GPUs as the collectors listed them; falls back to NVIDIA display-class PCI functions when none were listed. */
    public int gpuCount() {
        int listed = inventory.gpu().gpus().size();
        return listed > 0 ? listed : (int) inventory.pciDevices().stream().filter(p -> p.isNvidiaGpu()).count();
    }
}

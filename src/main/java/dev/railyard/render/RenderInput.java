package dev.railyard.render;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.ClusterSpec.Binding;
import dev.railyard.model.ClusterSpec.LinkLayer;
import dev.railyard.model.ClusterSpec.Network;
import dev.railyard.model.ClusterSpec.Role;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What the renderers read: the spec, the node being rendered and, when one was given, that node's RDMA inventory
 * (for the RoCE v2 GID index and the subnet manager's port GUID). {@code agentPort} is where agents serve /metrics;
 * {@code system} is what the node's installed system says (the OS release, the packaged slurmd unit), when known.
 */
public record RenderInput(ClusterSpec spec, ClusterSpec.Node node, Optional<List<RdmaDevice>> rdma, int agentPort,
                          InstalledSystem system) {

    public RenderInput(ClusterSpec spec, ClusterSpec.Node node, Optional<List<RdmaDevice>> rdma, int agentPort) {
        this(spec, node, rdma, agentPort, InstalledSystem.unknown());
    }

    public static final int DEFAULT_AGENT_PORT = 9410;

    /** One network as it lands on this node. */
    public record Bound(Network network, Binding binding) {

        public boolean infiniband() {
            return network.linkLayer().orElse(LinkLayer.ETHERNET) == LinkLayer.INFINIBAND;
        }

        /** The address with the subnet's prefix ("10.0.1.1" in 10.0.1.0/24 -> "10.0.1.1/24"). */
        public Optional<String> cidr() {
            return binding.address().map(a -> {
                if (a.contains("/")) return a;
                return network.subnet().map(s -> a + s.substring(s.indexOf('/'))).orElse(a + "/32");
            });
        }

        public Optional<String> bareAddress() {
            return binding.address().map(a -> a.contains("/") ? a.substring(0, a.indexOf('/')) : a);
        }
    }

    /** The spec file's name only, so rendered headers do not depend on where the spec was read from. */
    public String specName() {
        Path p = Path.of(spec.source());
        return p.getFileName() == null ? spec.source() : p.getFileName().toString();
    }

    /** Compute and storage networks bound on this node, in spec order. */
    public List<Bound> fabric() {
        return bound().stream().filter(b -> b.network().role() != Role.MANAGEMENT).toList();
    }

    /** Compute networks bound on this node, in spec order. */
    public List<Bound> compute() {
        return bound().stream().filter(b -> b.network().role() == Role.COMPUTE).toList();
    }

    public Optional<Bound> management() {
        return bound().stream().filter(b -> b.network().role() == Role.MANAGEMENT).findFirst();
    }

    public List<Bound> bound() {
        return boundFor(node.name());
    }

    public List<Bound> boundFor(String nodeName) {
        return spec.networks().stream()
                .filter(n -> n.bind().containsKey(nodeName))
                .map(n -> new Bound(n, n.bind().get(nodeName)))
                .toList();
    }

    /** The inventory's port for a binding's "dev:port", when an inventory was given and has it. */
    public Optional<RdmaPort> port(Bound b) {
        if (rdma.isEmpty() || b.binding().rdma().isEmpty()) return Optional.empty();
        var ref = b.binding().rdma().get();
        return rdma.get().stream().flatMap(d -> d.ports().stream())
                .filter(p -> p.device().equals(ref.device()) && p.port() == ref.port())
                .findFirst();
    }

    /** The first line of a file that is the same on every node (Slurm compares them across nodes). */
    public String clusterHeader(String commentPrefix) {
        return commentPrefix + " Rendered by railyard from " + specName() + " for every node of " + spec.cluster()
                + ": edit the spec and render again rather than this file.\n";
    }

    /** The first line of every rendered file, in the file's comment syntax. */
    public String header(String commentPrefix) {
        return commentPrefix + " Rendered by railyard from " + specName() + " for " + node.name()
                + ": edit the spec and render again rather than this file.\n";
    }
}

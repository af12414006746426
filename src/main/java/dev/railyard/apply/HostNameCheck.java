package dev.railyard.apply;

import dev.railyard.model.ClusterSpec;
import dev.railyard.platform.HostRoot;

import java.util.Optional;

/**
 * Whether the machine under the root is the node apply was told to render: {@code apply --node gpuserver1} on
 * another host would write gpuserver1's addresses there and take its name in /etc/hosts.
 */
public final class HostNameCheck {

    private HostNameCheck() {
    }

    /** The kernel's hostname, else etc/hostname (a scratch root or an image that is not running). */
    public static Optional<String> hostname(HostRoot host) {
        return host.read("proc/sys/kernel/hostname").optional()
                .or(() -> host.read("etc/hostname").optional())
                .map(String::strip)
                .filter(h -> !h.isEmpty());
    }

    /** Why {@code node} is not this host, when the host's name is known and names another machine. */
    public static Optional<String> mismatch(ClusterSpec spec, String node, Optional<String> hostname) {
        if (hostname.isEmpty()) return Optional.empty();
        String h = hostname.get();
        Optional<String> named = spec.nodeForHost(h).map(ClusterSpec.Node::name);
        if (named.map(node::equals).orElse(false)) return Optional.empty();
        if (named.isEmpty() && ClusterSpec.shortHostname(h).equals(ClusterSpec.shortHostname(node))) return Optional.empty();
        return Optional.of("this host is named '" + h + "'" + named.map(n -> ", which is the spec's node " + n).orElse("")
                + ", not " + node);
    }
}

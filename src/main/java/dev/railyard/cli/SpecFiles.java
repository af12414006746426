package dev.railyard.cli;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import dev.railyard.spec.SpecReader;

import java.nio.file.Files;
import java.nio.file.Path;

/** --spec and --node as render and apply take them: a missing file or an unknown node is a one-line usage error. */
final class SpecFiles {

    private SpecFiles() {
    }

    static ClusterSpec load(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new RailyardException.Usage("--spec " + file + " is not a file", "write one with: railyard init > cluster.yaml");
        }
        return new SpecReader().read(file);
    }

    static String nodeName(ClusterSpec cluster, String node) {
        if (cluster.node(node).isEmpty()) {
            throw new RailyardException.Usage("node " + node + " is not in the spec " + cluster.source(),
                    "use one of: " + String.join(", ", cluster.nodes().stream().map(ClusterSpec.Node::name).toList()));
        }
        return node;
    }
}

package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.SshOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The spec's ssh key files checked on this machine before any node is reached. ssh only warns about an
 * {@code identity_file} it cannot read and goes on with other keys (ssh-agent's, or an IdentityFile of
 * {@code config_file}): the run then works as some other key, or fails later with "Permission denied". Either way
 * the spec says something that is not so, and the user hears it first.
 */
public final class SshKeyFiles {

    private SshKeyFiles() {
    }

    /** One line per missing or unreadable key file, naming the nodes that use it. */
    public static List<String> warnings(ClusterSpec spec) {
        Map<String, List<String>> nodesByKey = new LinkedHashMap<>();
        Map<String, Optional<String>> configByKey = new LinkedHashMap<>();
        for (ClusterSpec.Node node : spec.nodes()) {
            SshOptions ssh = spec.sshFor(node);
            ssh.identityFile().ifPresent(key -> {
                nodesByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(node.name());
                configByKey.putIfAbsent(key, ssh.configFile());
            });
        }
        List<String> out = new ArrayList<>();
        nodesByKey.forEach((key, nodes) -> {
            Path file = Path.of(SshCommand.expandHome(key));
            if (Files.isRegularFile(file) && Files.isReadable(file)) return;
            String why = Files.exists(file) ? "cannot be read" : "does not exist";
            String then = configByKey.get(key)
                    .map(c -> "ssh will log in with the keys " + c + " or ssh-agent offers instead, or not at all")
                    .orElse("ssh will log in with ssh-agent's keys instead, or not at all");
            out.add("ssh.identity_file " + key + " " + why + " here (used for " + String.join(", ", nodes) + "): "
                    + then + "; fix the path in the spec");
        });
        return out;
    }
}

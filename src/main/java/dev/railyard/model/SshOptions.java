package dev.railyard.model;

import java.util.Optional;

/**
 * How the ssh launcher reaches nodes, from the spec's {@code ssh} section and each node's own {@code ssh}: what is
 * empty is left to the user's ssh_config (or {@code configFile}, when given). Paths are as written ({@code ~/} is
 * the user's home); host keys are always checked as ssh_config says, so there is no switch to turn that off here.
 */
public record SshOptions(Optional<String> user, Optional<Integer> port, Optional<String> identityFile,
                         Optional<String> configFile, Optional<String> knownHosts) {

    public static SshOptions none() {
        return new SshOptions(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    /** These options with every field {@code node} sets taken from it (a node's own section wins). */
    public SshOptions overriddenBy(SshOptions node) {
        return new SshOptions(node.user.or(() -> user), node.port.or(() -> port),
                node.identityFile.or(() -> identityFile), node.configFile.or(() -> configFile),
                node.knownHosts.or(() -> knownHosts));
    }
}

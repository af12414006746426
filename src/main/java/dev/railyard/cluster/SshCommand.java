package dev.railyard.cluster;

import dev.railyard.model.SshOptions;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code ssh} argv for one node. Only what the spec sets is passed; everything else (and host key checking
 * above all) is the user's ssh_config's to decide. BatchMode because no one is there to type a password or answer a
 * host-key question; keep-alives so a host that dies mid-step is noticed within about 15 seconds.
 */
record SshCommand(String ssh, String address, SshOptions options) implements WrappedStep.Transport {

    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9_]([A-Za-z0-9._-]*[A-Za-z0-9_])?");
    static final Duration MAX_CONNECT = Duration.ofSeconds(10);

    SshCommand {
        // spec.SpecMapper checks addresses already; this guards every other caller: no option can pose as a host
        if (!HOST.matcher(address).matches()) {
            throw new IllegalArgumentException("not a host name or IPv4 address: \"" + address + "\"");
        }
    }

    /** A step as the user's ssh_config has it. */
    List<String> argv(String remoteCommand, Duration stepTimeout) {
        List<String> argv = common(stepTimeout);
        argv.addAll(List.of("--", address, remoteCommand));
        return argv;
    }

    /**
     * A step through the master at {@code controlPath} (a connection of its own where that master is gone); with
     * {@code "none"}, on a new connection past any master, so it proves that the node takes new connections.
     */
    List<String> argv(String remoteCommand, Duration stepTimeout, String controlPath) {
        List<String> argv = common(stepTimeout);
        argv.addAll(List.of("-o", "ControlMaster=no", "-o", "ControlPath=" + controlPath));
        argv.addAll(List.of("--", address, remoteCommand));
        return argv;
    }

    /**
     * Opens a master at {@code controlPath} that goes to the background once connected, ends {@code idle} after its
     * last step, and writes what it has to say to {@code logFile}.
     */
    List<String> masterArgv(String controlPath, Duration idle, Duration timeout, String logFile) {
        List<String> argv = common(timeout);
        // -E: the master's own words (a dead host's "Timeout, server ... not responding.") land in a file its steps can quote
        argv.addAll(List.of("-M", "-N", "-f", "-E", logFile, "-o", "ControlPath=" + controlPath,
                "-o", "ControlPersist=" + Math.max(1, idle.toSeconds())));
        argv.addAll(List.of("--", address));
        return argv;
    }

    /** Tells the master at {@code controlPath} to end. */
    List<String> exitArgv(String controlPath) {
        List<String> argv = common(Duration.ofSeconds(1));
        argv.addAll(List.of("-o", "ControlPath=" + controlPath, "-O", "exit", "--", address));
        return argv;
    }

    private List<String> common(Duration stepTimeout) {
        List<String> argv = new ArrayList<>(List.of(ssh, "-T", "-o", "BatchMode=yes",
                "-o", "ConnectTimeout=" + connectSeconds(stepTimeout),
                "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"));
        options.configFile().ifPresent(f -> argv.addAll(List.of("-F", expandHome(f))));
        options.user().ifPresent(u -> argv.addAll(List.of("-l", u)));
        options.port().ifPresent(p -> argv.addAll(List.of("-p", Integer.toString(p))));
        options.identityFile().ifPresent(f -> argv.addAll(List.of("-i", expandHome(f), "-o", "IdentitiesOnly=yes")));
        options.knownHosts().ifPresent(f -> argv.addAll(List.of("-o", "UserKnownHostsFile=" + expandHome(f))));
        return argv;
    }

    @Override
    public String where() {
        return address;
    }

    /** ssh exits 255 when ssh itself failed; railyard never uses that code. */
    @Override
    public Optional<String> unreachable(int exitCode, String stderr) {
        return exitCode == 255 ? Optional.of(SshFailure.describe(stderr, this)) : Optional.empty();
    }

    /** The scp-free way to name this host in a fix the user can paste ("ssh-keyscan -p 2222 10.0.0.3"). */
    String keyscanCommand() {
        return "ssh-keyscan " + options.port().map(p -> "-p " + p + " ").orElse("") + address
                + " >> " + options.knownHosts().orElse("~/.ssh/known_hosts");
    }

    private static long connectSeconds(Duration stepTimeout) {
        return Math.max(1, Math.min(MAX_CONNECT.toSeconds(), stepTimeout.toSeconds()));
    }

    static String expandHome(String path) {
        if (!path.startsWith("~/")) return path;
        return Path.of(System.getProperty("user.home")).resolve(path.substring(2)).toString();
    }
}

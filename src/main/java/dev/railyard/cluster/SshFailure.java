package dev.railyard.cluster;

import java.util.List;

/**
 * What ssh's own stderr says when it exits 255 (ssh's code for "ssh failed", never one railyard uses), in words for
 * the report, with the fix where one is known. Host key failures are spelled out because the fix is a decision for
 * a person (is that really the node's key?), never something railyard does by itself.
 */
final class SshFailure {

    private SshFailure() {
    }

    static String describe(String stderr, SshCommand cmd) {
        String lastSshLine = lastSshLine(stderr);
        if (stderr.contains("REMOTE HOST IDENTIFICATION HAS CHANGED")) {
            return "the host key of " + cmd.address() + " has changed since it was recorded (a reinstalled node, or "
                    + "someone in between); if the new key is right, remove the old one with: ssh-keygen -R "
                    + cmd.address() + cmd.options().knownHosts().map(f -> " -f " + f).orElse("")
                    + " and add the new one with: " + cmd.keyscanCommand();
        }
        if (stderr.contains("Host key verification failed")) {
            return "the host key of " + cmd.address() + " is not known (ssh: Host key verification failed); check "
                    + "the node's key and add it with: " + cmd.keyscanCommand();
        }
        if (stderr.contains("Permission denied")) {
            return lastSshLine + " (set ssh.user and ssh.identity_file in the spec, or load the key into ssh-agent; "
                    + "railyard runs ssh with BatchMode=yes, so it cannot ask for a password)";
        }
        return lastSshLine;
    }

    /** ssh's last complaint: its lines come after anything the remote step printed. */
    private static String lastSshLine(String stderr) {
        List<String> lines = stderr.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (lines.isEmpty()) return "ssh failed without a message (exit 255)";
        String last = lines.getLast();
        return last.startsWith("ssh:") ? last : "ssh: " + last;
    }
}

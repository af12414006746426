package dev.railyard.cluster;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * What ssh's own stderr says when it exits 255 (ssh's code for "ssh failed", never one railyard uses), in words for
 * the report, with the fix where one is known. Host key failures are spelled out because the fix is a decision for
 * a person (is that really the node's key?), never something railyard does by itself.
 */
final class SshFailure {

    private SshFailure() {
    }

    /** The ssh client's own messages, which a remote program's stderr lines do not start with. */
    private static final java.util.regex.Pattern SSH_WORDS = java.util.regex.Pattern.compile(
            "^(ssh|ssh_exchange_identification|kex_exchange_identification|client_loop|mux_client\\w*|muxclient|"
                    + "channel \\d+|packet_write_wait|Control socket|ControlSocket)[: ].*"
                    + "|^(Connection to|Connection closed|Connection reset|Timeout, server|Received disconnect|"
                    + "Bad owner|Host key verification failed|Permission denied|@@@|Warning: ).*");

    /** Whether the last line of a step's stderr is the ssh client's, not the remote program's. */
    static boolean endsInSshWords(String stderr) {
        String last = stderr.strip().lines().reduce((a, b) -> b).orElse("").strip();
        return !last.isEmpty() && SSH_WORDS.matcher(last).matches();
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
            Optional<String> key = cmd.options().identityFile();
            Optional<String> missing = stderr.lines().map(String::strip)
                    .filter(l -> l.contains("Identity file ") && l.contains("not accessible")).findFirst();
            if (key.isPresent() && missing.isPresent()) {
                return lastSshLine + " (" + missing.get().replaceFirst("^Warning: ", "").replaceFirst("\\.$", "")
                        + ": fix ssh.identity_file in the spec)";
            }
            if (key.isPresent() && needsPassphrase(Path.of(SshCommand.expandHome(key.get())))) {
                return lastSshLine + " (the key " + key.get() + " is protected by a passphrase, and railyard runs ssh "
                        + "with BatchMode=yes, so nobody can type it: load the key with ssh-add " + key.get()
                        + " and run railyard where SSH_AUTH_SOCK reaches that agent)";
            }
            return lastSshLine + " (set ssh.user and ssh.identity_file in the spec, or load the key into ssh-agent; "
                    + "railyard runs ssh with BatchMode=yes, so it cannot ask for a password)";
        }
        return lastSshLine;
    }

    /**
     * Whether a private key file is encrypted: OpenSSH's own format names its cipher ("none" when it is not), PEM
     * says ENCRYPTED. An unreadable or unknown file is not judged.
     */
    static boolean needsPassphrase(Path key) {
        String text;
        try {
            if (Files.size(key) > 64 * 1024) return false;
            text = Files.readString(key, StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            return false;
        }
        if (text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED")) return true;
        int begin = text.indexOf(OPENSSH_BEGIN);
        int end = text.indexOf("-----END OPENSSH PRIVATE KEY-----");
        if (begin < 0 || end < begin) return false;
        byte[] blob;
        try {
            blob = Base64.getMimeDecoder().decode(text.substring(begin + OPENSSH_BEGIN.length(), end));
        } catch (IllegalArgumentException e) {
            return false;
        }
        // "openssh-key-v1\0", then the cipher name as a string: uint32 length, bytes
        byte[] magic = "openssh-key-v1\0".getBytes(StandardCharsets.US_ASCII);
        if (blob.length < magic.length + 4 || !Arrays.equals(Arrays.copyOf(blob, magic.length), magic)) return false;
        ByteBuffer b = ByteBuffer.wrap(blob, magic.length, blob.length - magic.length);
        int length = b.getInt();
        if (length < 0 || length > b.remaining() || length > 64) return false;
        byte[] cipher = new byte[length];
        b.get(cipher);
        return !"none".equals(new String(cipher, StandardCharsets.US_ASCII));
    }

    private static final String OPENSSH_BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----";

    /** ssh's last complaint: its lines come after anything the remote step printed. */
    private static String lastSshLine(String stderr) {
        List<String> lines = stderr.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (lines.isEmpty()) return "ssh failed without a message (exit 255)";
        String last = lines.getLast();
        return last.startsWith("ssh:") ? last : "ssh: " + last;
    }
}

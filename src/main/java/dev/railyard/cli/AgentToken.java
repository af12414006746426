package dev.railyard.cli;

import dev.railyard.model.RailyardException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The shared secret for the agent's state-changing endpoints. The file must be readable by its owner only, as
 * ssh insists for keys: a token others can read protects nothing.
 */
final class AgentToken {

    private AgentToken() {
    }

    /** A token is one line; anything longer is some other file. */
    private static final long MAX_BYTES = 4096;

    private static RailyardException notAToken(Path file, String why) {
        return new RailyardException.Usage("--token-file " + file + " does not hold a token (a token is one line; " + why
                + ")", "give a file made for the token: install -m 600 /dev/null /etc/railyard/agent.token && "
                + "head -c 32 /dev/urandom | base64 > /etc/railyard/agent.token");
    }

    static Optional<String> read(Path file) {
        if (file == null) return Optional.empty();
        if (!Files.isRegularFile(file)) {
            throw new RailyardException.Usage("--token-file " + file + " is not a file",
                    "create one: install -m 600 /dev/null " + file + " && head -c 32 /dev/urandom | base64 > " + file);
        }
        try {
            // what the file holds first: a file that is no token (a typo'd path such as /etc/passwd) must never get a
            // chmod suggestion, since following it would break a system file
            if (Files.size(file) > MAX_BYTES) throw notAToken(file, "it is " + Files.size(file) + " bytes");
            List<String> lines = Files.readString(file, StandardCharsets.UTF_8).strip().lines().toList();
            if (lines.size() > 1) throw notAToken(file, "it has " + lines.size() + " lines");
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            if (perms.contains(PosixFilePermission.GROUP_READ) || perms.contains(PosixFilePermission.OTHERS_READ)) {
                throw new RailyardException.Usage("--token-file " + file + " can be read by others",
                        "chmod 600 " + file);
            }
            String token = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (token.length() < 16) {
                throw new RailyardException.Usage("--token-file " + file + " holds fewer than 16 characters",
                        "head -c 32 /dev/urandom | base64 > " + file);
            }
            return Optional.of(token);
        } catch (IOException e) {
            throw new RailyardException.Usage("cannot read --token-file " + file + ": " + e.getMessage(),
                    "run as the file's owner (root)");
        }
    }
}

package dev.railyard.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

/** A --token-file that is no token (a system file named by mistake) never gets a chmod hint; a loose token does. */
class AgentTokenHintTest {

    @Test
    void aSystemFileIsNotATokenAndIsNotToBeChmodded() {
        CliRun r = CliRun.of("agent", "clear", "all", "--token-file", "/etc/passwd", "--url", "http://127.0.0.1:9");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--token-file /etc/passwd does not hold a token").doesNotContain("chmod");
    }

    @Test
    void aTokenOthersCanReadGetsTheChmod(@TempDir Path dir) throws Exception {
        Path token = Files.writeString(dir.resolve("agent.token"), "0123456789abcdef0123\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));
        CliRun r = CliRun.of("agent", "clear", "all", "--token-file", token.toString(), "--url", "http://127.0.0.1:9");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("can be read by others").contains("hint: chmod 600 " + token);
    }
}

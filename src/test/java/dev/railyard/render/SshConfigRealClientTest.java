package dev.railyard.render;

import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rendered ssh_config.d file read by the real ssh client ({@code ssh -G} prints the configuration it would use
 * and connects nowhere): the fabric name resolves to its address, and the spec's ssh user (S2: geo) is not the
 * login of another local user (the test runs as root, or whoever runs it, never as geo).
 */
class SshConfigRealClientTest {

    @Test
    void anotherLocalUserKeepsItsOwnLoginName(@TempDir Path dir) throws IOException {
        Path ssh = RealTools.require("ssh", "openssh-client");
        String me = System.getProperty("user.name");
        assertThat(me).isNotEqualTo("geo");
        Path conf = dir.resolve("railyard.conf");
        Files.writeString(conf, Examples.file(Examples.render("s2-dgx-spark-roce", "spark-01"), SshConfigRenderer.PATH).content());
        CommandRunner.Result r = CommandRunner.system().run(List.of(ssh.toString(), "-G", "-F", conf.toString(), "spark-02-mesh"),
                Duration.ofSeconds(20));
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        List<String> lines = r.stdout().lines().toList();
        assertThat(lines).contains("hostname 192.168.100.2", "user " + me).doesNotContain("user geo");
    }
}

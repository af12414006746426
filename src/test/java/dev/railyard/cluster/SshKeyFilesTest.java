package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** A missing identity_file is said before any node is reached, also when config_file gives ssh another key. */
class SshKeyFilesTest {

    private static ClusterSpec spec(String ssh) {
        return new SpecReader().read("c.yaml", """
                cluster: lab
                nodes:
                  - {name: n1, address: 10.0.0.1}
                  - {name: n2, address: 10.0.0.2}
                ssh: %s
                """.formatted(ssh));
    }

    @Test
    void aMissingKeyIsWarnedEvenWhenTheConfigFileNamesAnother(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(dir.resolve("ssh_config"), "Host *\n  IdentityFile " + dir.resolve("other") + "\n");
        String missing = dir.resolve("id_gone").toString();
        assertThat(SshKeyFiles.warnings(spec("{identity_file: " + missing + ", config_file: " + config + "}")))
                .containsExactly("ssh.identity_file " + missing + " does not exist here (used for n1, n2): ssh will log "
                        + "in with the keys " + config + " or ssh-agent offers instead, or not at all; fix the path in the spec");
        assertThat(SshKeyFiles.warnings(spec("{identity_file: " + missing + "}")).getFirst())
                .contains("ssh-agent's keys instead");
    }

    @Test
    void aKeyThatIsThereIsNotMentioned(@TempDir Path dir) throws IOException {
        Path key = Files.writeString(dir.resolve("id_ed25519"), "key\n");
        assertThat(SshKeyFiles.warnings(spec("{identity_file: " + key + "}"))).isEmpty();
        assertThat(SshKeyFiles.warnings(spec("{user: ops}"))).isEmpty();
    }

    @Test
    void aDirectoryWhereTheKeyShouldBeCannotBeRead(@TempDir Path dir) {
        assertThat(SshKeyFiles.warnings(spec("{identity_file: " + dir + "}")).getFirst()).contains("cannot be read");
    }
}

package dev.railyard.platform;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A program that cannot be started says why in words, not in Java's "Cannot run program ... error: 2". */
class ProcessCommandRunnerStartTest {

    @Test
    void aMissingProgramIsNotFound() {
        CommandRunner.Result r = CommandRunner.system().run(List.of("railyard-no-such-tool-xyz"), Duration.ofSeconds(5));
        assertThat(r.notFound()).isTrue();
        assertThat(r.startError()).isEqualTo("not found");
    }

    @Test
    void aFileWithoutTheExecuteBitIsPermissionDenied(@TempDir Path dir) throws Exception {
        Path script = Files.writeString(dir.resolve("tool"), "#!/bin/sh\n");
        CommandRunner.Result r = CommandRunner.system().run(List.of(script.toString()), Duration.ofSeconds(5));
        assertThat(r.startError()).isEqualTo("permission denied (not executable)").doesNotContain("Cannot run program");
    }
}

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

    /** Ctrl-C to the process group kills the JDK's spawn helper before the program runs (seen as validate started). */
    @Test
    void aSpawnHelperKilledByASignalIsAnInterruptNotAFailure() {
        String words = ProcessCommandRunner.startFailure(new java.io.IOException("Cannot run program \"/usr/bin/setsid\": Failed to exec spawn helper: pid: 12905, signal: 2, error: 0 (none) \nPossible reasons:\n  - Spawn helper ran into JDK version mismatch"));
        assertThat(words).isEqualTo("interrupted as it started (signal 2)");
        assertThat(new CommandRunner.Result(List.of("salloc"), -1, "", "", false, words).interruptedAtStart()).isTrue();
        assertThat(new CommandRunner.Result(List.of("salloc"), -1, "", "", false, "not found").interruptedAtStart()).isFalse();
    }
}

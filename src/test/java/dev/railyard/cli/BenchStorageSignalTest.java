package dev.railyard.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run stopped by a signal (Ctrl-C, kill) removes its scratch file: `bench storage` in a child JVM, with a stand-in
 * fio on its PATH that writes the file and then waits for it to disappear (so it exits with the JVM's clean-up and
 * leaves nothing running).
 */
class BenchStorageSignalTest {

    @TempDir
    Path dir;

    @Test
    void aTerminatedRunLeavesNoScratchFile() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path data = Files.createDirectories(dir.resolve("data"));
        Path fio = bin.resolve("fio");
        Files.writeString(fio, """
                #!/bin/sh
                for a in "$@"; do case "$a" in --filename=*) f="${a#--filename=}";; esac; done
                echo written > "$f"
                while [ -e "$f" ]; do sleep 0.05; done
                exit 1
                """);
        Files.setPosixFilePermissions(fio, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder pb = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "bench", "storage", "--dir",
                data.toString(), "--size", "64M", "--no-direct")).redirectErrorStream(true)
                .redirectOutput(dir.resolve("out.txt").toFile());
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        Path scratch = data.resolve(BenchStorageCommand.SCRATCH);
        Process p;
        try (WatchService watch = data.getFileSystem().newWatchService()) {
            data.register(watch, StandardWatchEventKinds.ENTRY_CREATE);
            p = pb.start();
            // woken by the file's creation, not by a clock (bounded, so a run that never writes fails the test)
            WatchKey key;
            while (!Files.exists(scratch) && (key = watch.poll(60, TimeUnit.SECONDS)) != null) {
                key.pollEvents(); // another entry appeared: look again
                key.reset();
            }
        }
        assertThat(scratch).as(Files.readString(dir.resolve("out.txt"))).exists();
        p.destroy(); // SIGTERM: the JVM runs its shutdown hooks, as on Ctrl-C
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(scratch).doesNotExist();
    }
}

package dev.railyard.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One cancellation path: Interrupts handles the signals and holds the only shutdown hook that stops anything, and
 * nothing halts the JVM. A command's own hook once halted the whole JVM with its own code while validate, which had
 * run that command in its JVM, was still writing its report. The NVML hook only waits for native calls in flight.
 */
class OneShutdownHookTest {

    private static final Path MAIN = Path.of("src/main/java");

    private static List<String> filesContaining(String text) throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            return files.filter(p -> p.toString().endsWith(".java")).filter(p -> {
                try {
                    return Files.readString(p).contains(text);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).map(p -> MAIN.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void onlyInterruptsStopsOnAShutdownAndNothingHalts() throws IOException {
        assertThat(filesContaining("addShutdownHook(")).containsExactly(
                "dev/railyard/cli/Interrupts.java", "dev/railyard/collect/NvmlShutdowns.java");
        assertThat(filesContaining(".halt(")).isEmpty();
    }
}

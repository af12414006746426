package dev.railyard.agent;

import dev.railyard.nativelib.FakeNvmlLibrary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `railyard agent` stopped by SIGTERM while a GPU read is inside NVML: it finishes the read, then exits 0. The fake
 * NVML tears itself down in the process's exit handlers, as the driver's library does, and aborts the process when a
 * call is still running then: the way the real agent died with SIGSEGV in libc when a stop signal came mid-read.
 */
class AgentStopTest {

    @TempDir
    Path dir;

    @Test
    void aStopSignalDuringAnNvmlReadWaitsForTheReadThenExitsZero() throws Throwable {
        AgentTree tree = new AgentTree(Files.createDirectory(dir.resolve("tree")));
        tree.kernelLog.close();
        try (FakeNvmlLibrary nvml = FakeNvmlLibrary.build(Files.createDirectory(dir.resolve("lib")), "FAKE_NVML_ONE_GPU")) {
            Process agent = ChildRailyard.start(Map.of("RAILYARD_NVML", nvml.path().toString(), "FAKE_NVML_SLOW_READ_MS", "1500"),
                    "agent", "--root", tree.root.toString(), "--node", "n1", "--listen", "127.0.0.1:0",
                    "--interval", "100ms", "--read-deadline", "5s");
            List<String> lines = new ArrayList<>();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(agent.getInputStream(), StandardCharsets.UTF_8));
                String line;
                while ((line = out.readLine()) != null) {
                    lines.add(line);
                    if (line.equals("fake_nvml: slow read")) break;
                }
                assertThat(line).as("the agent reached NVML's slow read: %s", lines).isNotNull();
                agent.toHandle().destroy(); // SIGTERM while the read runs (Process.destroy would also close its output)
                while ((line = out.readLine()) != null) lines.add(line);
                assertThat(agent.waitFor(30, TimeUnit.SECONDS)).isTrue();
            } finally {
                agent.destroyForcibly();
            }
            assertThat(lines).as("no call into NVML after its teardown").noneMatch(l -> l.contains("torn down"));
            assertThat(agent.exitValue()).as(String.join("\n", lines)).isZero();
        }
    }
}

package dev.railyard.cli;

import dev.railyard.model.RailyardException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's "sampling failed: ..." line says why in words: it printed the exception itself, e.g.
 * "java.io.UncheckedIOException: java.nio.file.AccessDeniedException: /sys/class/hwmon/hwmon0/temp1_input".
 */
class AgentSampleFailureTest {

    @Test
    void aFileThatCannotBeReadIsNamedWithTheReason() {
        String words = AgentCommand.sampleFailure(new UncheckedIOException(
                new AccessDeniedException("/sys/class/hwmon/hwmon0/temp1_input")));
        assertThat(words).isEqualTo("cannot read /sys/class/hwmon/hwmon0/temp1_input: permission denied");
        assertThat(AgentCommand.sampleFailure(new UncheckedIOException("reading counters",
                new NoSuchFileException("/sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data"))))
                .isEqualTo("cannot read /sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data: no such file or directory");
    }

    @Test
    void otherFailuresAreWordsWithoutJavaClassNames() {
        assertThat(AgentCommand.sampleFailure(new UncheckedIOException(new IOException("No space left on device"))))
                .isEqualTo("disk full");
        assertThat(AgentCommand.sampleFailure(new RailyardException.Usage("NVML is not loaded", "install the driver")))
                .isEqualTo("NVML is not loaded");
        assertThat(AgentCommand.sampleFailure(new IllegalStateException("counter went backwards")))
                .isEqualTo("internal error: counter went backwards; the agent keeps sampling, and please report it");
        for (RuntimeException e : new RuntimeException[] {new NullPointerException(), new IllegalStateException(),
                new UncheckedIOException(new AccessDeniedException("/dev/nvidiactl")), new ArithmeticException("/ by zero")}) {
            assertThat(AgentCommand.sampleFailure(e)).as(e.toString())
                    .doesNotContain("java.", "Exception", "Error:").isNotBlank();
        }
    }
}

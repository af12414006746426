package dev.railyard.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every command without JUnit output takes --format text|json from one mixin, so picocli refuses junit while parsing:
 * exit 2, before the command loads a library, starts a tool or touches a disk.
 */
class FormatOptionTest {

    @ParameterizedTest
    @ValueSource(strings = {"inventory", "diagnose -", "bench gpu", "bench nccl", "bench storage", "bench rdma server",
            "bench tcp client 127.0.0.1"})
    void junitIsRefusedByTheParserWithExitTwo(String command) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        String[] argv = (command + " --format junit").split(" ");
        assertThat(cl.execute(argv)).as(err.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("Invalid value for option '--format'").contains("TEXT, JSON")
                .doesNotContain("Exception");
        assertThat(out.toString()).isEmpty();
    }
}

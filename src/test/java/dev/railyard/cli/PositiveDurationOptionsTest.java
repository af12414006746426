package dev.railyard.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** A duration where zero has no meaning is a usage error at zero or below (exit 2, one line), never exit 4. */
class PositiveDurationOptionsTest {

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
            "status, --timeout, 0s",
            "status, --timeout, -1s",
            "apply, --step-timeout, 0s",
            "check, --healthcheck-timeout, 0",
            "agent, --interval, 0ms",
            "agent, --read-deadline, 0s",
            "agent, --flap-window, 0s",
            "agent, --reread, 0s",
            "validate, --step-timeout, 0s",
    })
    void zeroOrNegativeIsAUsageError(String command, String option, String value) {
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(command, option, value);
        assertThat(code).as(err.toString()).isEqualTo(2);
        assertThat(err.toString()).startsWith("railyard: ").contains(option).doesNotContain("internal error");
    }
}

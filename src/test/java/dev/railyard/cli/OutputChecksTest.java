package dev.railyard.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where validate and bundle write is checked before any work: a file where a directory is wanted, and places the
 * kernel refuses to write even for root (sysfs), are exit 2 with one line, and no step has run (no progress line,
 * no bundle built).
 */
class OutputChecksTest {

    @TempDir
    Path dir;

    record Ran(int code, String err) {}

    private static Ran run(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        return new Ran(cl.execute(args), err.toString());
    }

    @ParameterizedTest(name = "validate {0} {1}")
    @CsvSource({
            "--out, /etc/passwd, is not a directory",
            "--out, /sys, cannot write in /sys",
            "--out, /sys/railyard-report, cannot create it",
            "--db, /sys/history.db, cannot write in /sys",
            "--db, /tmp, is a directory",
            "--db, /sys/railyard/history.db, cannot create /sys/railyard",
    })
    void validateChecksWhereItWritesBeforeAnyStep(String option, String value, String words) {
        Ran r = run("validate", option, value, "--out".equals(option) ? "--no-history" : "--quick");
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).startsWith("railyard: " + option + " " + value).contains(words)
                .doesNotContain("inventory and checks").doesNotContain("validate 2");
    }

    @Test
    void bundleChecksItsDestinationBeforeBuilding() {
        Ran r = run("bundle", "--out", "/sys/railyard.tar.gz", "--cache-dir", dir.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).startsWith("railyard: --out /sys/railyard.tar.gz: cannot write in /sys");
        assertThat(dir).as("nothing was built").isEmptyDirectory();
    }
}

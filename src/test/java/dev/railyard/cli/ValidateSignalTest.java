package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real {@code railyard validate} (this machine, no spec: its light steps in its own JVM) stopped by SIGINT or
 * SIGTERM, sent to the process alone or to its process group, the moment it prints a given line of its progress:
 * every time it leaves the report directory, the verdict line and the history row, and ends with a code from
 * docs/exit-codes.md. A second signal ends it at once. Every wait is on the process's own output or its end.
 */
class ValidateSignalTest {

    private static final Pattern RUN_ID = Pattern.compile("validate (\\d{8}-\\d{6}-[0-9a-f]{4}):");

    @TempDir
    Path dir;

    @BeforeEach
    void needsSetsid() {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")), "needs setsid (util-linux)");
    }

    record Ended(int code, String stdout, String stderr, String runId) {}

    /** Starts validate in its own session, reads its stderr until {@code line}, then sends each signal in turn. */
    private Ended stopAt(String line, boolean group, String... signals) throws Exception {
        List<String> argv = List.of("/usr/bin/setsid", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "validate", "--db", dir.resolve("history.db").toString(), "--out", dir.resolve("report").toString());
        Process p = new ProcessBuilder(argv).redirectOutput(dir.resolve("stdout.txt").toFile()).start();
        List<String> seen = new ArrayList<>();
        String runId = null;
        try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            String l;
            int sent = 0;
            while ((l = err.readLine()) != null) {
                seen.add(l);
                Matcher m = RUN_ID.matcher(l);
                if (runId == null && m.find()) runId = m.group(1);
                // the first signal at the line asked for; each later one once validate said it took the one before
                // (two signals sent back to back can reach the process as one)
                boolean due = sent == 0 ? l.contains(line) : l.contains("validate interrupted");
                if (sent < signals.length && due) {
                    Process kill = new ProcessBuilder("kill", "-" + signals[sent], "--", (group ? "-" : "") + p.pid()).start();
                    kill.waitFor();
                    sent++;
                }
            }
            assertThat(sent).as("validate printed '%s': %s", line, seen).isEqualTo(signals.length);
        } finally {
            if (!p.waitFor(60, TimeUnit.SECONDS)) p.destroyForcibly();
        }
        return new Ended(p.exitValue(), Files.readString(dir.resolve("stdout.txt")), String.join("\n", seen), runId);
    }

    private void assertEverythingLeft(Ended e) throws Exception {
        assertThat(e.code()).as(e.stderr()).isIn(0, 1);
        JsonNode report = new ObjectMapper().readTree(dir.resolve("report").resolve("report.json").toFile());
        assertThat(dir.resolve("report")).isDirectoryContaining("glob:**/junit.xml").isDirectoryContaining("glob:**/index.html");
        assertThat(e.stdout()).as("the verdict line").contains("VERDICT: ");
        if (!report.path("complete").asBoolean()) {
            assertThat(e.code()).as("an interrupted run is 1: " + e.stderr()).isEqualTo(1);
            assertThat(e.stdout()).contains("the run was interrupted");
        }
        assertThat(e.runId()).isNotNull();
        StringWriter out = new StringWriter();
        picocli.CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(new StringWriter()));
        assertThat(cl.execute("history", "--db", dir.resolve("history.db").toString())).isZero();
        assertThat(out.toString()).as("the history row").contains(e.runId());
    }

    @ParameterizedTest(name = "SIG{0} to the {1} at \"{2}\"")
    @CsvSource({
            "INT, process, through the local launcher",
            "TERM, process, through the local launcher",
            "INT, group, through the local launcher",
            "INT, process, nodes: inventory and checks",
            "TERM, process, nodes: inventory and checks",
            "INT, group, nodes: inventory and checks",
            "TERM, group, nodes: inventory and checks",
            "INT, process, loopback TCP",
            "TERM, process, loopback TCP",
            "INT, group, loopback TCP",
            "TERM, group, loopback TCP",
    })
    void aSignalAtAnyStepLeavesTheReportTheVerdictAndTheHistoryRow(String signal, String to, String line) throws Exception {
        assertEverythingLeft(stopAt(line, to.equals("group"), signal));
    }

    @Test
    void aSecondSignalEndsItAtOnce() throws Exception {
        Ended e = stopAt("nodes: inventory and checks", false, "INT", "INT");
        assertThat(e.code()).isEqualTo(1);
        assertThat(e.stderr()).contains("railyard: stopped at once by a second signal");
    }
}

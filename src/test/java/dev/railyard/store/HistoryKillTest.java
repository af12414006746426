package dev.railyard.store;

import dev.railyard.cli.Main;
import dev.railyard.model.ValidationReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The coordinator killed with -9 mid-run: a child JVM records pairs into a real SQLite file and is killed
 * (SIGKILL, no shutdown hooks, no close) once it has said it committed 25; every row it reported survives and
 * `railyard history` lists the run as incomplete.
 */
class HistoryKillTest {

    @TempDir
    Path dir;

    @Test
    void rowsCommittedBeforeKillNineSurviveAndTheRunIsIncomplete() throws Exception {
        Path db = dir.resolve("history.db");
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(javaBin, "-cp", System.getProperty("java.class.path"),
                HistoryRecordingChild.class.getName(), db.toString(), "run-killed")
                .redirectError(dir.resolve("child.err").toFile()).start();
        int reported = 0;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while (reported < 25 && (line = lines.readLine()) != null) {
                reported = Integer.parseInt(line.substring("recorded ".length()));
            }
            assertThat(reported).as("child stopped early; see %s", dir.resolve("child.err")).isEqualTo(25);
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        assertThat(child.exitValue()).isEqualTo(137);

        try (HistoryReader reader = History.read(db)) {
            ValidationReport run = reader.load("run-killed");
            assertThat(run.complete()).isFalse();
            assertThat(run.pairs().size()).isGreaterThanOrEqualTo(reported);
            assertThat(run.pairs().subList(0, reported)).extracting(p -> p.round())
                    .containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, reported).boxed().toList());
        }

        StringWriter out = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(new StringWriter()));
        assertThat(cl.execute("history", "--db", db.toString())).isZero();
        List<String> rows = out.toString().lines().filter(l -> l.startsWith("run-killed")).toList();
        assertThat(rows).singleElement().satisfies(row ->
                assertThat(row).contains("killed-lab").contains("incomplete").contains("—"));
        assertThat(out.toString()).contains("1 run, 1 incomplete");
    }
}

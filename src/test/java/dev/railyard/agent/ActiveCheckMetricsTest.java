package dev.railyard.agent;

import dev.railyard.cluster.RunHeader;
import dev.railyard.cluster.RunRecorder;
import dev.railyard.model.Severity;
import dev.railyard.store.History;
import dev.railyard.testing.RealTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * railyard_last_active_check_*: the newest run of the history database the scheduled active check records into
 * (render's service and batch script: validate --quick --db /var/lib/railyard/history.db), a real SQLite file
 * written by the same recorder validate uses, served on /metrics and checked by the real promtool.
 */
class ActiveCheckMetricsTest {

    @TempDir
    Path dir;

    private static final Instant START = Instant.parse("2026-11-22T03:41:07Z");

    private static void started(RunRecorder rec, String id, Instant at) {
        rec.runStarted(new RunHeader(id, "this-node", "local", List.of("gpu1"), List.of("railyard", "validate", "--quick"), at));
    }

    private static String metrics(Optional<ActiveCheckHistory.LastActiveCheck> last) {
        AgentState s = new AgentState("gpu1", 3, Optional.empty(), List.of(), HealthState.HEALTHY, Map.of(), Map.of(),
                SlurmStatus.disabled(), START, last);
        return new String(new ExpositionText().render(AgentMetrics.families(s), false), StandardCharsets.UTF_8);
    }

    @Test
    void theNewestRunIsTheLastActiveCheckWithItsVerdictAndDuration() throws Exception {
        Path db = dir.resolve("var/lib/railyard/history.db");
        Files.createDirectories(db.getParent());
        ActiveCheckHistory history = new ActiveCheckHistory(db);
        assertThat(history.last()).as("no active check has run").isEmpty();
        try (RunRecorder rec = History.open(db)) {
            started(rec, "20261115T031200Z-a", START.minusSeconds(7 * 86400));
            rec.runFinished("20261115T031200Z-a", START.minusSeconds(7 * 86400 - 30), Severity.PASS);
            started(rec, "20261122T034107Z-b", START);
            rec.runFinished("20261122T034107Z-b", START.plusMillis(42_500), Severity.WARN);
        }
        Optional<ActiveCheckHistory.LastActiveCheck> last = history.last();
        assertThat(last).hasValue(new ActiveCheckHistory.LastActiveCheck("20261122T034107Z-b", START,
                Optional.of(START.plusMillis(42_500)), Optional.of(Severity.WARN)));

        String body = metrics(last);
        assertThat(body.lines().filter(l -> l.startsWith("railyard_last_active_check"))).containsExactly(
                "railyard_last_active_check_complete 1.0",
                "railyard_last_active_check_duration_seconds 42.5",
                "railyard_last_active_check_start_timestamp_seconds 1.795318867E9",
                "railyard_last_active_check_verdict{verdict=\"WARN\"} 1.0");
        assertThat(promtool(body)).isEmpty();
    }

    @Test
    void aCheckStillRunningOrKilledIsIncompleteWithNoVerdictOrDuration() throws Exception {
        Path db = dir.resolve("history.db");
        ActiveCheckHistory history = new ActiveCheckHistory(db);
        try (RunRecorder rec = History.open(db)) {
            started(rec, "20261122T034107Z-b", START);
        }
        String body = metrics(history.last());
        assertThat(body.lines().filter(l -> l.startsWith("railyard_last_active_check"))).containsExactly(
                "railyard_last_active_check_complete 0.0",
                "railyard_last_active_check_start_timestamp_seconds 1.795318867E9");
        // the run ends: the file changed, so the next read sees it
        try (RunRecorder rec = History.open(db)) {
            rec.runFinished("20261122T034107Z-b", START.plusSeconds(61), Severity.FAIL);
        }
        assertThat(history.last().flatMap(ActiveCheckHistory.LastActiveCheck::verdict)).hasValue(Severity.FAIL);
    }

    @Test
    void noHistoryFileServesNoActiveCheckMetricRatherThanZeros() {
        assertThat(metrics(new ActiveCheckHistory(dir.resolve("none.db")).last())).doesNotContain("railyard_last_active_check");
    }

    /** promtool check metrics' complaints about the active-check lines (none expected). */
    private static List<String> promtool(String body) throws Exception {
        Path promtool = RealTool.require("promtool", "prometheus");
        Process p = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
        p.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isIn(0, 3);
        return out.lines().filter(l -> l.contains("active_check")).toList();
    }
}

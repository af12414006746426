package dev.railyard.store;

import dev.railyard.cluster.RunHeader;
import dev.railyard.cluster.RunRecorder;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.PairTest;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import dev.railyard.report.ValidationReportFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** The SQLite history on real files: round trip of a whole run, WAL, incomplete runs, concurrent writers. */
class SqliteHistoryTest {

    @TempDir
    Path dir;

    @Test
    void aRecordedRunReadsBackAsTheReportValidateWrote() {
        Path db = dir.resolve("nested/dir/history.db");
        ValidationReport report = ValidationReportFixture.report();
        try (RunRecorder rec = History.open(db)) {
            Recordings.record(rec, report);
        }
        try (HistoryReader reader = History.read(db)) {
            assertThat(reader.load(report.runId())).isEqualTo(Recordings.withoutFacts(report));
            assertThat(reader.runs()).singleElement().satisfies(s -> {
                assertThat(s.complete()).isTrue();
                assertThat(s.verdict()).contains(Severity.FAIL);
                // what really ran: gpu4 was unreachable, and gpu1<->gpu3's retest is the same pair again
                assertThat(s.nodes()).isEqualTo(3);
                assertThat(s.nodesPlanned()).isEqualTo(4);
                assertThat(s.pairTests()).isEqualTo(report.pairs().size()).isEqualTo(11);
                assertThat(s.pairs()).isEqualTo(10);
                assertThat(s.duration()).contains(Duration.ofSeconds(212));
            });
        }
    }

    @Test
    void databaseIsInWalModeWithTheCurrentSchema() throws Exception {
        Path db = dir.resolve("h.db");
        History.open(db).close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("PRAGMA journal_mode")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("wal");
            }
            assertThat(Schema.version(c)).isEqualTo(Schema.CURRENT).isEqualTo(3);
        }
    }

    @Test
    void aRunWithoutItsEndIsIncompleteAndKeepsWhatItMeasured() {
        Path db = dir.resolve("h.db");
        Instant t0 = Instant.parse("2026-11-23T01:00:00Z");
        try (RunRecorder rec = History.open(db)) {
            rec.runStarted(new RunHeader("r1", "lab", "ssh", List.of("a", "b", "c"), List.of("railyard", "validate"), t0));
            rec.nodeFinished("r1", new dev.railyard.model.NodeOutcome("a", NodeStatus.COMPLETED, "", List.of(),
                    java.util.Optional.empty()));
            rec.pairMeasured("r1", pair("a", "b", 1, 36.4, t0));
            // b reported twice: the second outcome replaces the first, findings included.
            rec.nodeFinished("r1", new dev.railyard.model.NodeOutcome("b", NodeStatus.TIMED_OUT, "inventory: 60 s",
                    List.of(dev.railyard.model.Finding.pass("host.memlock", "b", "unlimited", "unlimited")),
                    java.util.Optional.empty()));
            rec.nodeFinished("r1", new dev.railyard.model.NodeOutcome("b", NodeStatus.UNREACHABLE, "ssh: refused",
                    List.of(), java.util.Optional.empty()));
        }
        try (HistoryReader reader = History.read(db)) {
            ValidationReport r = reader.load("r1");
            assertThat(r.complete()).isFalse();
            assertThat(r.finishedAt()).isEmpty();
            assertThat(r.severity()).isEqualTo(Severity.UNKNOWN);
            assertThat(r.pairs()).hasSize(1);
            assertThat(r.nodes()).extracting(n -> n.node() + " " + n.status())
                    .containsExactly("a COMPLETED", "b UNREACHABLE", "c NOT_RUN");
            assertThat(r.nodes().get(1).findings()).isEmpty();
            assertThat(r.nodes().get(2).detail()).isEqualTo("no result recorded before the run stopped");
            assertThat(reader.runs().getFirst().verdict()).isEmpty();
        }
    }

    @Test
    void concurrentWritersOnOneRecorderAndOnTwoConnectionsLoseNothing() throws Exception {
        Path db = dir.resolve("h.db");
        Instant t0 = Instant.parse("2026-11-23T01:00:00Z");
        int threads = 8;
        int perThread = 40;
        try (RunRecorder one = History.open(db); RunRecorder two = History.open(db)) {
            one.runStarted(new RunHeader("r1", "lab", "ssh", List.of("a", "b"), List.of(), t0));
            two.runStarted(new RunHeader("r2", "lab", "ssh", List.of("a", "b"), List.of(), t0.plusSeconds(1)));
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int id = t;
                    RunRecorder rec = t % 2 == 0 ? one : two;
                    String run = t % 2 == 0 ? "r1" : "r2";
                    done.add(pool.submit(() -> {
                        go.await();
                        for (int i = 0; i < perThread; i++) rec.pairMeasured(run, pair("a", "b", id, i, t0));
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> f : done) f.get();
            } finally {
                pool.shutdownNow();
            }
            one.runFinished("r1", t0.plusSeconds(60), Severity.PASS);
        }
        try (HistoryReader reader = History.read(db)) {
            Map<String, Integer> pairs = new java.util.TreeMap<>();
            reader.runs().forEach(s -> pairs.put(s.id(), s.pairTests()));
            assertThat(pairs).isEqualTo(Map.of("r1", threads / 2 * perThread, "r2", threads / 2 * perThread));
            assertThat(reader.load("r1").pairs()).extracting(PairResult::round).filteredOn(r -> r == 2)
                    .hasSize(perThread);
        }
    }

    @Test
    void historyReadsWhileARunHoldsTheWriteLock() throws Exception {
        Path db = dir.resolve("h.db");
        Instant t0 = Instant.parse("2026-11-23T01:00:00Z");
        try (RunRecorder rec = History.open(db)) {
            rec.runStarted(new RunHeader("done", "lab", "ssh", List.of("a"), List.of(), t0));
        }
        try (Connection writer = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = writer.createStatement()) {
            st.execute("BEGIN IMMEDIATE");
            st.execute("INSERT INTO run (id, cluster, launcher, nodes, command_line, started_at) "
                    + "VALUES ('open', 'lab', 'ssh', '[]', '[]', '2026-11-23T02:00:00Z')");
            // WAL: the reader neither waits for the writer's transaction nor sees it.
            try (HistoryReader reader = History.read(db)) {
                assertThat(reader.runs()).extracting(RunSummary::id).containsExactly("done");
            }
            st.execute("COMMIT");
        }
    }

    @Test
    void runIdsResolveByUniquePrefix() {
        Path db = dir.resolve("h.db");
        Instant t0 = Instant.parse("2026-11-23T01:00:00Z");
        try (RunRecorder rec = History.open(db)) {
            rec.runStarted(new RunHeader("20261123T0100-a", "lab", "ssh", List.of(), List.of(), t0));
            rec.runStarted(new RunHeader("20261123T0200-b", "lab", "ssh", List.of(), List.of(), t0.plusSeconds(3600)));
        }
        try (HistoryReader reader = History.read(db)) {
            assertThat(reader.resolve("20261123T02")).isEqualTo("20261123T0200-b");
            assertThat(reader.runs()).extracting(RunSummary::id).containsExactly("20261123T0200-b", "20261123T0100-a");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> reader.resolve("20261123"))
                    .hasMessageContaining("ambiguous");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> reader.resolve("nope"))
                    .hasMessageContaining("no stored run nope");
        }
    }

    @Test
    void defaultPathFollowsXdgDataHome() {
        assertThat(History.defaultPath(Map.of("XDG_DATA_HOME", "/data"), "/home/u"))
                .isEqualTo(Path.of("/data/railyard/history.db"));
        assertThat(History.defaultPath(Map.of(), "/home/u"))
                .isEqualTo(Path.of("/home/u/.local/share/railyard/history.db"));
        assertThat(History.defaultPath(Map.of("XDG_DATA_HOME", "relative"), "/home/u"))
                .isEqualTo(Path.of("/home/u/.local/share/railyard/history.db"));
    }

    @Test
    void timesAndDurationsKeepTheirFullPrecision() {
        Path db = dir.resolve("h.db");
        Instant t0 = Instant.parse("2026-11-23T00:59:13.424198786Z");
        PairResult p = new PairResult(new PairTest("lo0", "a", "b", "127.0.0.12", PairKind.TCP_BANDWIDTH), 1, 1,
                new PairOutcome.Measured(2.0042), t0.plusNanos(1), Duration.ofNanos(3_004_005_006L));
        try (RunRecorder rec = History.open(db)) {
            rec.runStarted(new RunHeader("r", "lab", "local", List.of("a", "b"), List.of(), t0));
            rec.pairMeasured("r", p);
        }
        try (HistoryReader reader = History.read(db)) {
            ValidationReport r = reader.load("r");
            assertThat(r.startedAt()).isEqualTo(t0);
            assertThat(r.pairs()).containsExactly(p);
        }
    }

    static PairResult pair(String client, String server, int round, double value, Instant at) {
        return new PairResult(new PairTest("rail0", client, server, "10.0.0.2", PairKind.RDMA_BANDWIDTH), round, 1,
                new PairOutcome.Measured(value), at, Duration.ofSeconds(5));
    }
}

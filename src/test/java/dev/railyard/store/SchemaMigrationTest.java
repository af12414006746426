package dev.railyard.store;

import dev.railyard.cluster.RunRecorder;
import dev.railyard.model.Culprit;
import dev.railyard.model.CulpritKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The migrations on real SQLite files: from nothing, from a version-1 database with rows, and a newer one refused. */
class SchemaMigrationTest {

    @TempDir
    Path dir;

    @Test
    void anEmptyDatabaseGetsEveryMigration() throws Exception {
        Path db = dir.resolve("h.db");
        History.open(db).close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            assertThat(versions(c)).containsExactly(1, 2, 3);
            assertThat(tables(c)).contains("run", "node_result", "pair_result", "finding", "culprit", "size_curve",
                    "measurement");
        }
    }

    @Test
    void aVersionOneDatabaseIsBroughtForwardWithItsRows() throws Exception {
        Path db = dir.resolve("h.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            Schema.migrate(c, 1);
            assertThat(tables(c)).doesNotContain("culprit", "size_curve");
            st.execute("INSERT INTO run (id, cluster, launcher, nodes, command_line, started_at, finished_at, verdict) "
                    + "VALUES ('old', 'lab', 'ssh', '[\"a\",\"b\"]', '[]', '2026-11-01T10:00:00Z', "
                    + "'2026-11-01T10:05:00Z', 'PASS')");
            st.execute("INSERT INTO pair_result (run_id, network, client, server, server_address, kind, round, attempt, "
                    + "value, failure, started_at, elapsed_ns) VALUES ('old', 'rail0', 'a', 'b', '10.0.0.2', "
                    + "'RDMA_BANDWIDTH', 1, 1, 36.4, NULL, '2026-11-01T10:01:00Z', 5000000000)");
        }
        try (RunRecorder rec = History.open(db)) {
            rec.culpritsFound("old", List.of(new Culprit(CulpritKind.RAIL, "rail0", List.of(), Severity.WARN,
                    "every pair slow", "check the switch")));
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            assertThat(versions(c)).containsExactly(1, 2, 3);
        }
        try (HistoryReader reader = History.read(db)) {
            ValidationReport old = reader.load("old");
            assertThat(old.complete()).isTrue();
            assertThat(old.pairs()).singleElement().extracting(p -> p.outcome())
                    .isEqualTo(new PairOutcome.Measured(36.4));
            assertThat(old.culprits()).extracting(Culprit::subject).containsExactly("rail rail0");
            assertThat(old.measurements()).isEmpty();
        }
    }

    @Test
    void aDatabaseFromANewerRailyardIsRefused() throws Exception {
        Path db = dir.resolve("h.db");
        History.open(db).close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("INSERT INTO schema_version (version) VALUES (" + (Schema.CURRENT + 1) + ")");
        }
        assertThatThrownBy(() -> History.open(db)).hasMessageContaining("newer than this Railyard knows");
    }

    @Test
    void readingWhereThereIsNoDatabaseIsAUsageError() {
        assertThatThrownBy(() -> History.read(dir.resolve("none.db")))
                .isInstanceOf(dev.railyard.model.RailyardException.Usage.class)
                .hasMessageContaining("no history database at");
        assertThat(dir.resolve("none.db")).doesNotExist();
    }

    private static List<Integer> versions(Connection c) throws Exception {
        List<Integer> out = new ArrayList<>();
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT version FROM schema_version ORDER BY version")) {
            while (rs.next()) out.add(rs.getInt(1));
        }
        return out;
    }

    private static List<String> tables(Connection c) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }
}

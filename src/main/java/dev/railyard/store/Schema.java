package dev.railyard.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The history database's schema as a list of migrations, applied in order inside one transaction each; the
 * schema_version table holds the last one applied. Append a migration for any change, never edit a released one:
 * a database written by an older Railyard is brought forward, one written by a newer one is refused.
 */
final class Schema {

    /** Migration N (1-based) brings the schema from version N-1 to N. */
    static final List<List<String>> MIGRATIONS = List.of(
            // 1: runs, what each node ended with, every pair measurement and every finding, as validate records them.
            List.of("""
                    CREATE TABLE run (
                      id TEXT PRIMARY KEY,
                      cluster TEXT NOT NULL,
                      launcher TEXT NOT NULL,
                      nodes TEXT NOT NULL,
                      command_line TEXT NOT NULL,
                      started_at TEXT NOT NULL,
                      finished_at TEXT,
                      verdict TEXT)""", """
                    CREATE TABLE node_result (
                      run_id TEXT NOT NULL REFERENCES run(id),
                      node TEXT NOT NULL,
                      status TEXT NOT NULL,
                      detail TEXT NOT NULL,
                      facts TEXT,
                      PRIMARY KEY (run_id, node))""", """
                    CREATE TABLE pair_result (
                      seq INTEGER PRIMARY KEY AUTOINCREMENT,
                      run_id TEXT NOT NULL REFERENCES run(id),
                      network TEXT NOT NULL,
                      client TEXT NOT NULL,
                      server TEXT NOT NULL,
                      server_address TEXT NOT NULL,
                      kind TEXT NOT NULL,
                      round INTEGER NOT NULL,
                      attempt INTEGER NOT NULL,
                      value REAL,
                      failure TEXT,
                      started_at TEXT NOT NULL,
                      elapsed_ns INTEGER NOT NULL,
                      CHECK ((value IS NULL) <> (failure IS NULL)))""", """
                    CREATE TABLE finding (
                      seq INTEGER PRIMARY KEY AUTOINCREMENT,
                      run_id TEXT NOT NULL REFERENCES run(id),
                      scope TEXT NOT NULL,
                      node TEXT,
                      check_id TEXT NOT NULL,
                      severity TEXT NOT NULL,
                      subject TEXT NOT NULL,
                      observed TEXT NOT NULL,
                      expected TEXT NOT NULL,
                      remediation TEXT NOT NULL)"""),
            // 2: culprits and size curves, so a stored run rebuilds the whole report; indexes for show and compare.
            List.of("""
                    CREATE TABLE culprit (
                      seq INTEGER PRIMARY KEY AUTOINCREMENT,
                      run_id TEXT NOT NULL REFERENCES run(id),
                      kind TEXT NOT NULL,
                      network TEXT NOT NULL,
                      nodes TEXT NOT NULL,
                      severity TEXT NOT NULL,
                      evidence TEXT NOT NULL,
                      remediation TEXT NOT NULL)""", """
                    CREATE TABLE size_curve (
                      seq INTEGER PRIMARY KEY AUTOINCREMENT,
                      run_id TEXT NOT NULL REFERENCES run(id),
                      title TEXT NOT NULL,
                      subject TEXT NOT NULL,
                      unit TEXT NOT NULL,
                      points TEXT NOT NULL)""",
                    "CREATE INDEX pair_result_run ON pair_result (run_id)",
                    "CREATE INDEX finding_run ON finding (run_id)"),
            // 3: the node benchmarks' numbers (loopback TCP, GPU copies, NCCL busbw, storage), so compare has them.
            List.of("""
                    CREATE TABLE measurement (
                      seq INTEGER PRIMARY KEY AUTOINCREMENT,
                      run_id TEXT NOT NULL REFERENCES run(id),
                      benchmark TEXT NOT NULL,
                      subject TEXT NOT NULL,
                      value REAL NOT NULL,
                      unit TEXT NOT NULL)""", "CREATE INDEX measurement_run ON measurement (run_id)"));

    static final int CURRENT = MIGRATIONS.size();

    private Schema() {
    }

    /** The version recorded in the database, 0 for an empty one; reads only. */
    static int version(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")) {
                if (!rs.next() || rs.getInt(1) == 0) return 0;
            }
            try (ResultSet rs = st.executeQuery("SELECT max(version) FROM schema_version")) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        }
    }

    /**
     * Applies the migrations after the database's version up to {@code target}. BEGIN IMMEDIATE takes the write
     * lock first, so two Railyards opening a new database at once do not both migrate it.
     */
    static void migrate(Connection c, int target) throws SQLException {
        // The common case, a current database, takes no lock: `history` reads while a run records.
        if (version(c) == target) return;
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(true);
        try (Statement st = c.createStatement()) {
            st.execute("BEGIN IMMEDIATE");
            try {
                st.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
                int from = version(c);
                if (from > MIGRATIONS.size()) {
                    throw new SQLException("the history database has schema version " + from
                            + ", newer than this Railyard knows (" + MIGRATIONS.size() + ")");
                }
                for (int v = from + 1; v <= target; v++) {
                    for (String sql : MIGRATIONS.get(v - 1)) st.execute(sql);
                    st.execute("INSERT INTO schema_version (version) VALUES (" + v + ")");
                }
                st.execute("COMMIT");
            } catch (SQLException | RuntimeException e) {
                st.execute("ROLLBACK");
                throw e;
            }
        } finally {
            c.setAutoCommit(auto);
        }
    }
}

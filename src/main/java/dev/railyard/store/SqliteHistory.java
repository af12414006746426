package dev.railyard.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.railyard.cluster.RunHeader;
import dev.railyard.cluster.RunRecorder;
import dev.railyard.model.Culprit;
import dev.railyard.model.Finding;
import dev.railyard.model.Measurement;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.Severity;
import dev.railyard.model.SizeCurve;
import dev.railyard.report.Json;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;

/**
 * The run history in SQLite: every call writes and commits its rows before it returns, so what was measured is
 * kept however the run ends. Calls come from validate's worker threads; one lock serialises them on the single
 * connection (SQLite has one writer at a time anyway, and a result arrives every few seconds at most).
 */
public final class SqliteHistory implements RunRecorder {

    private final Connection connection;
    private final Object lock = new Object();

    SqliteHistory(Connection connection) {
        this.connection = connection;
    }

    @Override
    public void runStarted(RunHeader h) {
        write("run " + h.runId(), c -> {
            try (PreparedStatement st = c.prepareStatement("INSERT INTO run (id, cluster, launcher, nodes, command_line, "
                    + "started_at) VALUES (?, ?, ?, ?, ?, ?)")) {
                st.setString(1, h.runId());
                st.setString(2, h.cluster());
                st.setString(3, h.launcher());
                st.setString(4, json(h.nodes()));
                st.setString(5, json(h.commandLine()));
                st.setString(6, h.startedAt().toString());
                st.executeUpdate();
            }
        });
    }

    @Override
    public void nodeFinished(String runId, NodeOutcome o) {
        write("node " + o.node(), c -> {
            c.setAutoCommit(false);
            try {
                try (PreparedStatement st = c.prepareStatement("INSERT OR REPLACE INTO node_result (run_id, node, status, "
                        + "detail, facts) VALUES (?, ?, ?, ?, ?)")) {
                    st.setString(1, runId);
                    st.setString(2, o.node());
                    st.setString(3, o.status().name());
                    st.setString(4, o.detail());
                    st.setString(5, o.facts().isPresent() ? json(o.facts().get()) : null);
                    st.executeUpdate();
                }
                // A node reported twice (a retried step) keeps its latest findings only, as its row does.
                try (PreparedStatement st = c.prepareStatement("DELETE FROM finding WHERE run_id = ? AND node = ?")) {
                    st.setString(1, runId);
                    st.setString(2, o.node());
                    st.executeUpdate();
                }
                insertFindings(c, runId, "node", o.node(), o.findings());
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        });
    }

    @Override
    public void pairMeasured(String runId, PairResult r) {
        write("pair " + r.test().subject(), c -> {
            try (PreparedStatement st = c.prepareStatement("INSERT INTO pair_result (run_id, network, client, server, "
                    + "server_address, kind, round, attempt, value, failure, started_at, elapsed_ns) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                st.setString(1, runId);
                st.setString(2, r.test().network());
                st.setString(3, r.test().client());
                st.setString(4, r.test().server());
                st.setString(5, r.test().serverAddress());
                st.setString(6, r.test().kind().name());
                st.setInt(7, r.round());
                st.setInt(8, r.attempt());
                switch (r.outcome()) {
                    case PairOutcome.Measured(double v) -> {
                        st.setDouble(9, v);
                        st.setNull(10, Types.VARCHAR);
                    }
                    case PairOutcome.Failed(String reason) -> {
                        st.setNull(9, Types.REAL);
                        st.setString(10, reason);
                    }
                    case PairOutcome.NotRun(String why) -> {
                        st.setNull(9, Types.REAL);
                        st.setString(10, PairOutcome.NotRun.STORED_PREFIX + why);
                    }
                }
                st.setString(11, r.startedAt().toString());
                st.setLong(12, r.elapsed().toNanos());
                st.executeUpdate();
            }
        });
    }

    @Override
    public void findingsAdded(String runId, String scope, List<Finding> findings) {
        write("findings " + scope, c -> {
            c.setAutoCommit(false);
            try {
                insertFindings(c, runId, scope, null, findings);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        });
    }

    @Override
    public void culpritsFound(String runId, List<Culprit> culprits) {
        write("culprits", c -> {
            try (PreparedStatement st = c.prepareStatement("INSERT INTO culprit (run_id, kind, network, nodes, severity, "
                    + "evidence, remediation) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                for (Culprit k : culprits) {
                    st.setString(1, runId);
                    st.setString(2, k.kind().name());
                    st.setString(3, k.network());
                    st.setString(4, json(k.nodes()));
                    st.setString(5, k.severity().name());
                    st.setString(6, k.evidence());
                    st.setString(7, k.remediation());
                    st.addBatch();
                }
                st.executeBatch();
            }
        });
    }

    @Override
    public void curveMeasured(String runId, SizeCurve curve) {
        write("curve " + curve.title(), c -> {
            try (PreparedStatement st = c.prepareStatement("INSERT INTO size_curve (run_id, title, subject, unit, points) "
                    + "VALUES (?, ?, ?, ?, ?)")) {
                st.setString(1, runId);
                st.setString(2, curve.title());
                st.setString(3, curve.subject());
                st.setString(4, curve.unit());
                st.setString(5, json(curve.points()));
                st.executeUpdate();
            }
        });
    }

    @Override
    public void measured(String runId, List<Measurement> measurements) {
        write("measurements", c -> {
            try (PreparedStatement st = c.prepareStatement("INSERT INTO measurement (run_id, benchmark, subject, value, unit) "
                    + "VALUES (?, ?, ?, ?, ?)")) {
                for (Measurement m : measurements) {
                    st.setString(1, runId);
                    st.setString(2, m.benchmark());
                    st.setString(3, m.subject());
                    st.setDouble(4, m.value());
                    st.setString(5, m.unit());
                    st.addBatch();
                }
                st.executeBatch();
            }
        });
    }

    @Override
    public void runFinished(String runId, Instant finishedAt, Severity verdict) {
        write("end of run " + runId, c -> {
            try (PreparedStatement st = c.prepareStatement("UPDATE run SET finished_at = ?, verdict = ? WHERE id = ?")) {
                st.setString(1, finishedAt.toString());
                st.setString(2, verdict.name());
                st.setString(3, runId);
                st.executeUpdate();
            }
        });
    }

    @Override
    public void close() {
        synchronized (lock) {
            try {
                connection.close();
            } catch (SQLException e) {
                throw new HistoryException("closing the history database", e);
            }
        }
    }

    private static void insertFindings(Connection c, String runId, String scope, String node, List<Finding> findings)
            throws SQLException {
        try (PreparedStatement st = c.prepareStatement("INSERT INTO finding (run_id, scope, node, check_id, severity, "
                + "subject, observed, expected, remediation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (Finding f : findings) {
                st.setString(1, runId);
                st.setString(2, scope);
                st.setString(3, node);
                st.setString(4, f.id());
                st.setString(5, f.severity().name());
                st.setString(6, f.subject());
                st.setString(7, f.observed());
                st.setString(8, f.expected());
                st.setString(9, f.remediation());
                st.addBatch();
            }
            st.executeBatch();
        }
    }

    private interface Write {
        void apply(Connection c) throws SQLException;
    }

    private void write(String what, Write w) {
        synchronized (lock) {
            try {
                w.apply(connection);
            } catch (SQLException e) {
                throw new HistoryException("recording " + what, e);
            }
        }
    }

    private static String json(Object value) {
        try {
            return Json.mapper().writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}

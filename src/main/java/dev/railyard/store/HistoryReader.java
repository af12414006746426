package dev.railyard.store;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.railyard.model.Culprit;
import dev.railyard.model.CulpritKind;
import dev.railyard.model.Finding;
import dev.railyard.model.Measurement;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.PairTest;
import dev.railyard.model.RailyardException;
import dev.railyard.model.Severity;
import dev.railyard.model.SizeCurve;
import dev.railyard.model.ValidationReport;
import dev.railyard.report.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads stored runs back: the list for `history`, and a whole run rebuilt as the {@link ValidationReport} validate
 * wrote (for `history show` and `compare`). Node facts are stored as JSON for people and are not read back: the
 * rebuilt report carries the findings judged from them.
 */
public final class HistoryReader implements AutoCloseable {

    private final Connection connection;

    HistoryReader(Connection connection) {
        this.connection = connection;
    }

    /** Every run, newest first. */
    public List<RunSummary> runs() {
        List<RunSummary> out = new ArrayList<>();
        // What really ran: nodes that completed (an unreachable node was planned, not run), and each pair once
        // however often it was tested (a retest is the same pair again).
        String sql = "SELECT r.id, r.cluster, r.launcher, r.started_at, r.finished_at, r.nodes, r.verdict, "
                + "(SELECT count(*) FROM (SELECT DISTINCT network, kind, min(client, server), max(client, server) "
                + "FROM pair_result p WHERE p.run_id = r.id)), "
                + "(SELECT count(*) FROM node_result n WHERE n.run_id = r.id AND n.status = 'COMPLETED'), "
                + "(SELECT count(*) FROM pair_result p WHERE p.run_id = r.id) "
                + "FROM run r ORDER BY r.started_at DESC, r.id";
        try (PreparedStatement st = connection.prepareStatement(sql); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                out.add(new RunSummary(rs.getString(1), rs.getString(2), rs.getString(3), Instant.parse(rs.getString(4)),
                        Optional.ofNullable(rs.getString(5)).map(Instant::parse), rs.getInt(9),
                        strings(rs.getString(6)).size(), rs.getInt(8), rs.getInt(10),
                        Optional.ofNullable(rs.getString(7)).map(Severity::valueOf)));
            }
        } catch (SQLException e) {
            throw new HistoryException("listing runs", e);
        }
        return out;
    }

    /** The run with this ID, or the one run whose ID starts with it; a usage error names the candidates otherwise. */
    public String resolve(String idOrPrefix) {
        List<String> ids = runs().stream().map(RunSummary::id).toList();
        if (ids.contains(idOrPrefix)) return idOrPrefix;
        List<String> matches = ids.stream().filter(id -> id.startsWith(idOrPrefix)).toList();
        if (matches.size() == 1) return matches.getFirst();
        if (matches.isEmpty()) {
            throw new RailyardException.Usage("no stored run " + idOrPrefix,
                    "railyard history lists the stored runs" + (ids.isEmpty() ? " (there are none yet)" : ""));
        }
        throw new RailyardException.Usage("run " + idOrPrefix + " is ambiguous: " + String.join(", ", matches),
                "give more of the run ID");
    }

    /** A stored run as a report; incomplete when it never recorded its end. */
    public ValidationReport load(String runId) {
        try {
            return read(runId);
        } catch (SQLException e) {
            throw new HistoryException("reading run " + runId, e);
        }
    }

    private ValidationReport read(String runId) throws SQLException {
        String cluster;
        String launcher;
        Instant started;
        Optional<Instant> finished;
        List<String> headerNodes;
        try (PreparedStatement st = connection.prepareStatement(
                "SELECT cluster, launcher, started_at, finished_at, nodes FROM run WHERE id = ?")) {
            st.setString(1, runId);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) throw new RailyardException.Usage("no stored run " + runId, "railyard history lists them");
                cluster = rs.getString(1);
                launcher = rs.getString(2);
                started = Instant.parse(rs.getString(3));
                finished = Optional.ofNullable(rs.getString(4)).map(Instant::parse);
                headerNodes = strings(rs.getString(5));
            }
        }
        Map<String, List<Finding>> byScope = new LinkedHashMap<>();
        Map<String, List<Finding>> byNode = new LinkedHashMap<>();
        query("SELECT scope, node, check_id, severity, subject, observed, expected, remediation FROM finding "
                + "WHERE run_id = ? ORDER BY seq", runId, rs -> {
            Finding f = new Finding(rs.getString(3), Severity.valueOf(rs.getString(4)), rs.getString(5),
                    rs.getString(6), rs.getString(7), rs.getString(8));
            if (rs.getString(2) != null) byNode.computeIfAbsent(rs.getString(2), n -> new ArrayList<>()).add(f);
            else byScope.computeIfAbsent(rs.getString(1), s -> new ArrayList<>()).add(f);
        });
        Map<String, NodeOutcome> recorded = new LinkedHashMap<>();
        query("SELECT node, status, detail FROM node_result WHERE run_id = ?", runId, rs -> recorded.put(rs.getString(1),
                new NodeOutcome(rs.getString(1), NodeStatus.valueOf(rs.getString(2)), rs.getString(3),
                        byNode.getOrDefault(rs.getString(1), List.of()), Optional.empty())));
        List<NodeOutcome> nodes = new ArrayList<>();
        for (String n : headerNodes) {
            NodeOutcome o = recorded.remove(n);
            nodes.add(o != null ? o : new NodeOutcome(n, NodeStatus.NOT_RUN,
                    finished.isPresent() ? "no result recorded" : "no result recorded before the run stopped",
                    List.of(), Optional.empty()));
        }
        nodes.addAll(recorded.values());
        List<PairResult> pairs = new ArrayList<>();
        query("SELECT network, client, server, server_address, kind, round, attempt, value, failure, started_at, "
                + "elapsed_ns FROM pair_result WHERE run_id = ? ORDER BY seq", runId, rs -> {
            PairTest test = new PairTest(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                    PairKind.valueOf(rs.getString(5)));
            String failure = rs.getString(9);
            PairOutcome outcome = failure == null ? new PairOutcome.Measured(rs.getDouble(8))
                    : failure.startsWith(PairOutcome.NotRun.STORED_PREFIX)
                    ? new PairOutcome.NotRun(failure.substring(PairOutcome.NotRun.STORED_PREFIX.length()))
                    : new PairOutcome.Failed(failure);
            pairs.add(new PairResult(test, rs.getInt(6), rs.getInt(7), outcome, Instant.parse(rs.getString(10)),
                    Duration.ofNanos(rs.getLong(11))));
        });
        List<Culprit> culprits = new ArrayList<>();
        query("SELECT kind, network, nodes, severity, evidence, remediation FROM culprit WHERE run_id = ? ORDER BY seq",
                runId, rs -> culprits.add(new Culprit(CulpritKind.valueOf(rs.getString(1)), rs.getString(2),
                        strings(rs.getString(3)), Severity.valueOf(rs.getString(4)), rs.getString(5), rs.getString(6))));
        List<SizeCurve> curves = new ArrayList<>();
        query("SELECT title, subject, unit, points FROM size_curve WHERE run_id = ? ORDER BY seq", runId,
                rs -> curves.add(new SizeCurve(rs.getString(1), rs.getString(2), rs.getString(3), points(rs.getString(4)))));
        List<Measurement> measurements = new ArrayList<>();
        query("SELECT benchmark, subject, value, unit FROM measurement WHERE run_id = ? ORDER BY seq", runId,
                rs -> measurements.add(new Measurement(rs.getString(1), rs.getString(2), rs.getDouble(3), rs.getString(4))));
        int rounds = pairs.stream().mapToInt(PairResult::round).max().orElse(0);
        List<Finding> bench = new ArrayList<>();
        byScope.forEach((scope, fs) -> {
            if (!scope.equals("cluster") && !scope.equals("pairs")) bench.addAll(fs);
        });
        return new ValidationReport(ValidationReport.SCHEMA_VERSION, runId, cluster, launcher, started, finished,
                finished.isPresent(), rounds, nodes, byScope.getOrDefault("cluster", List.of()), pairs,
                byScope.getOrDefault("pairs", List.of()), culprits, bench, curves, measurements);
    }

    private interface Row {
        void accept(ResultSet rs) throws SQLException;
    }

    private void query(String sql, String runId, Row row) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            st.setString(1, runId);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) row.accept(rs);
            }
        }
    }

    private static List<String> strings(String json) {
        return parse(json, new TypeReference<>() {});
    }

    private static List<SizeCurve.Point> points(String json) {
        return parse(json, new TypeReference<>() {});
    }

    private static <T> T parse(String json, TypeReference<T> type) {
        try {
            return Json.mapper().readValue(json, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new HistoryException("closing the history database", e);
        }
    }
}

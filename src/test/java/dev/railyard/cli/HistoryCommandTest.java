package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.cluster.RunHeader;
import dev.railyard.cluster.RunRecorder;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.ValidationReport;
import dev.railyard.report.ValidationJson;
import dev.railyard.report.ValidationReportFixture;
import dev.railyard.store.History;
import dev.railyard.store.Recordings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** railyard history and compare end to end on a real SQLite file filled through the recorder validate uses. */
class HistoryCommandTest {

    @TempDir
    Path dir;

    record Run(int code, String out, String err) {}

    Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /** The fixture (back to back) and the same cluster an hour later "through a switch", as the homelab write-up plans it. */
    Path twoRuns() {
        Path db = dir.resolve("history.db");
        ValidationReport before = ValidationReportFixture.report();
        try (RunRecorder rec = History.open(db)) {
            Recordings.record(rec, before);
            Recordings.record(rec, throughASwitch(before));
            rec.runStarted(new RunHeader("20261123T030000Z-cut", "homelab-v100", "ssh", List.of("gpu1", "gpu2"),
                    List.of("railyard", "validate"), Instant.parse("2026-11-23T03:00:00Z")));
        }
        return db;
    }

    static ValidationReport throughASwitch(ValidationReport r) {
        List<PairResult> pairs = r.pairs().stream().map(p -> {
            double factor = p.test().kind() == PairKind.RDMA_LATENCY ? 1.6 : 1.0;
            PairOutcome o = p.outcome() instanceof PairOutcome.Measured(double v)
                    ? new PairOutcome.Measured(v * factor) : p.outcome();
            return new PairResult(p.test(), p.round(), p.attempt(), o, p.startedAt().plusSeconds(3600), p.elapsed());
        }).toList();
        return new ValidationReport(r.schemaVersion(), "20261122T220405Z-switch", r.cluster(), r.launcher(),
                r.startedAt().plusSeconds(3600), r.finishedAt().map(f -> f.plusSeconds(3600)), true, r.rounds(),
                r.nodes(), r.clusterFindings(), pairs, r.pairFindings(), List.of(), r.benchFindings(), r.curves(),
                // gpu1's second GPU back to its x16 slot; the other numbers as before
                r.measurements().stream().map(m -> m.subject().equals("gpu1 GPU1")
                        ? new dev.railyard.model.Measurement(m.benchmark(), m.subject(), 11.7, m.unit()) : m).toList());
    }

    @Test
    void listsRunsNewestFirstWithIncompleteOnesMarked() throws Exception {
        Path db = twoRuns();
        Run r = run("history", "--db", db.toString());
        assertThat(r.code()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.getFirst()).startsWith("RUN").contains("CLUSTER", "STARTED", "DURATION", "NODES", "VERDICT", "COMPLETE");
        assertThat(lines.get(1)).startsWith("20261123T030000Z-cut").contains("incomplete");
        assertThat(lines.get(2)).startsWith("20261122T220405Z-switch").contains("3m 32s", "3 of 4", "FAIL", "yes");
        assertThat(lines.get(3)).startsWith("20261122T210405Z-homelab");
        assertThat(r.out()).contains("3 runs, 1 incomplete");

        JsonNode doc = new ObjectMapper().readTree(run("history", "--db", db.toString(), "--format", "json").out());
        assertThat(doc.get("schemaVersion").asInt()).isEqualTo(dev.railyard.report.Json.SCHEMA_VERSION);
        JsonNode json = doc.get("runs");
        assertThat(json).hasSize(3);
        assertThat(json.get(0).get("complete").asBoolean()).isFalse();
        assertThat(json.get(0).get("verdict").isNull()).isTrue();
        assertThat(json.get(1).get("durationSeconds").asDouble()).isEqualTo(212.0);
        // 11 tests of 10 pairs (one retest), on 3 of the 4 nodes (one unreachable)
        assertThat(json.get(2).get("pairs").asInt()).isEqualTo(10);
        assertThat(json.get(2).get("pairTests").asInt()).isEqualTo(11);
        assertThat(json.get(2).get("nodes").asInt()).isEqualTo(3);
        assertThat(json.get(2).get("nodesPlanned").asInt()).isEqualTo(4);
    }

    @Test
    void showsOneRunRebuiltFromTheDatabase() throws Exception {
        Path db = twoRuns();
        Run text = run("history", "20261122T21", "--db", db.toString());
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out()).startsWith("# homelab-v100 &lt;4 nodes&gt;: FAIL").contains("!!9.12!!");

        Run json = run("history", "show", "20261122T210405Z-homelab", "--db", db.toString(), "--format", "json");
        assertThat(json.out()).isEqualTo(ValidationJson.render(Recordings.withoutFacts(ValidationReportFixture.report())));

        Path out = dir.resolve("again");
        Run files = run("history", "show", "20261122T21", "--db", db.toString(), "--out", out.toString());
        assertThat(files.code()).isZero();
        assertThat(out.resolve("index.html")).content().contains("class=\"cell pair sev-FAIL culprit\"");
        assertThat(out.resolve("junit.xml")).exists();
    }

    @Test
    void missingDatabaseOrRunIsAUsageErrorInOneLine() {
        Run none = run("history", "--db", dir.resolve("none.db").toString());
        assertThat(none.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.err()).startsWith("railyard: no history database at").contains("hint:")
                .doesNotContain("Exception");
        Run ambiguous = run("history", "show", "2026112", "--db", twoRuns().toString());
        assertThat(ambiguous.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(ambiguous.err()).contains("is ambiguous");
    }

    @Test
    void compareShowsEveryNumberLargestChangeFirstAndTheCulpritThatWentAway() throws Exception {
        Path db = twoRuns();
        Run r = run("compare", "20261122T21", "20261122T22", "--db", db.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("A: 20261122T210405Z-homelab").contains("B: 20261122T220405Z-switch")
                .contains("Noise band: ±5 % (fewer than two earlier runs of homelab-v100 <4 nodes>");
        List<String> table = r.out().lines().dropWhile(l -> !l.startsWith("BENCHMARK")).toList();
        // largest change first: the GPU copy (+91.8 %), then the latencies (+60 %), then what stayed within noise
        assertThat(table.get(1)).contains("GPU copy host->device", "gpu1 GPU1", "6.10 GB/s", "11.7 GB/s", "+91.8 %", "better");
        assertThat(table.get(2)).contains("rdma latency", "rail0", "+60.0 %", "worse");
        assertThat(table).filteredOn(l -> l.contains("NCCL all_reduce busbw at 1 GiB")).singleElement()
                .satisfies(l -> assertThat(l).contains("4.31 GB/s", "+0.0 %", "within noise"));
        assertThat(table).filteredOn(l -> l.contains("NCCL all_reduce busbw at 16 MiB")).singleElement()
                .satisfies(l -> assertThat(l).contains("3.98 GB/s", "within noise"));
        assertThat(table).filteredOn(l -> l.contains("rdma bandwidth") && l.contains("gpu1<->gpu3")).singleElement()
                .satisfies(l -> assertThat(l).contains("9.12 Gb/s", "+0.0 %", "within noise"));
        // gpu2<->gpu4 failed in both runs: no number on either side, so no row to compare
        assertThat(r.out()).doesNotContain("gpu2<->gpu4");
        assertThat(r.out()).contains("culprit gone in B: link gpu1<->gpu3 on rail0");

        JsonNode json = new ObjectMapper().readTree(run("compare", "20261122T21", "20261122T22", "--db", db.toString(),
                "--format", "json").out());
        JsonNode latency = json.get("rows").get(1);
        assertThat(latency.get("subject").asText()).isEqualTo("median");
        assertThat(latency.get("unit").asText()).isEqualTo("µs");
        assertThat(latency.get("noisePercent").asDouble()).isEqualTo(5.0);
        assertThat(json.get("a").get("runId").asText()).isEqualTo("20261122T210405Z-homelab");
        assertThat(json.get("culpritsGone").get(0).asText()).isEqualTo("link gpu1<->gpu3 on rail0");
    }
}

package dev.railyard.report;

import dev.railyard.model.Culprit;
import dev.railyard.model.CulpritKind;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.PairTest;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report of a 256-node run: every form is written; the page draws the pairs by groups of nodes with the group
 * holding the one bad link outlined, and stays small; every pair is in the CSV and the JSON Lines side files while
 * report.json keeps the bad one; the Markdown lists the bad pairs instead of a 256-wide table. (256 rather than 512
 * keeps this under a few seconds on a shared CI core; scripts/validate-scale-sim.sh writes a 512-host report.)
 */
class ValidationReportScaleTest {

    @TempDir
    Path dir;

    @Test
    void twoHundredFiftySixNodes() throws Exception {
        int n = 256;
        Instant t0 = Instant.parse("2026-11-23T00:00:00Z");
        List<NodeOutcome> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add(new NodeOutcome(String.format("node%03d", i), NodeStatus.COMPLETED, "", List.of(), Optional.empty()));
        }
        List<PairResult> pairs = new ArrayList<>();
        List<Finding> findings = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                boolean bad = i == 7 && j == 200;
                PairTest t = new PairTest("ib0", nodes.get(i).node(), nodes.get(j).node(), "10.1.0.1", PairKind.RDMA_BANDWIDTH);
                pairs.add(new PairResult(t, 1, 1, new PairOutcome.Measured(bad ? 48.0 : 195.0), t0, Duration.ofSeconds(5)));
                findings.add(Finding.of(t.kind().checkId(), bad ? Severity.FAIL : Severity.PASS, t.subject(),
                        bad ? "48.0 Gb/s" : "195 Gb/s", "≥ 180 Gb/s", ""));
            }
        }
        Culprit link = new Culprit(CulpritKind.LINK, "ib0", List.of("node007", "node200"), Severity.FAIL, "one pair at 25 %", "reseat the cable");
        ValidationReport report = new ValidationReport(ValidationReport.SCHEMA_VERSION, "big", "h100-256", "slurm", t0,
                Optional.of(t0.plusSeconds(3600)), true, n - 1, nodes, List.of(), pairs, findings, List.of(link),
                List.of(), List.of());

        ValidationReportFiles.write(report, dir);

        // the page draws groups of 8 nodes (256 / 32), the worst pair of each: the bad link's group cell is outlined
        String html = Files.readString(dir.resolve("index.html"));
        assertThat(Pattern.compile("<g class=\"cell pair sev-").matcher(html).results().count()).isZero();
        assertThat(Pattern.compile("<g class=\"cell pair group ").matcher(html).results().count()).isEqualTo(32 * 33 / 2);
        assertThat(Pattern.compile("<g class=\"cell pair group sev-FAIL culprit\" data-rows=\"node200…node207\" "
                + "data-cols=\"node000…node007\"><title>[^<]*worst ib0 node007&lt;-&gt;node200 rdma bandwidth \\(Gb/s\\): 48.0 Gb/s")
                .matcher(html).results().count()).isEqualTo(1);
        assertThat(html).contains("<a href=\"pairs-ib0-rdma_bandwidth.csv\">")
                .contains("All 256 nodes completed without a FAIL or WARN finding.");
        assertThat(html.length()).isLessThan(400_000);

        // every pair in the CSV, every test in the JSON Lines file report.json names; report.json keeps the bad one
        List<String> csv = Files.readAllLines(dir.resolve("pairs-ib0-rdma_bandwidth.csv"));
        assertThat(csv).hasSize(n + 1);
        assertThat(csv.get(201).split(",", -1)[8]).isEqualTo("48.00");
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(dir.resolve("pairs.jsonl.gz")))) {
            assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().count())
                    .isEqualTo(n * (n - 1) / 2);
        }
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("report.json").toFile());
        assertThat(json.path("pairsFile").asText()).isEqualTo("pairs.jsonl.gz");
        assertThat(json.path("pairsTotal").asInt()).isEqualTo(n * (n - 1) / 2);
        assertThat(json.path("pairs")).singleElement().satisfies(p ->
                assertThat(p.path("test").path("subject").asText()).isEqualTo("ib0 node007<->node200"));
        String md = Files.readString(dir.resolve("report.md"));
        assertThat(md).contains("32640 of 32640 pairs of 256 nodes tested; 1 not fine:")
                .contains("| node200&lt;-&gt;node007 | 48.0 | FAIL | yes |");
    }
}

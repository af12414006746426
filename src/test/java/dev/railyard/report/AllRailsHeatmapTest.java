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
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 100-node run over two RDMA rails of different speeds, in a real headless Chromium: above 64 nodes the pairs
 * section opens on one heatmap of both rails by groups of nodes, each cell the worst pair of two groups on either
 * rail measured against that rail's own median. A bad node on rail0 colours its group's row and column, a bad link on
 * rail1 one cell, and a rail0 pair a little under rail0's median outranks rail1's normal (absolutely slower) pairs.
 * Each rail's own heatmap follows, one click away from the caption; a small run draws no such summary.
 */
class AllRailsHeatmapTest {

    @TempDir
    Path dir;

    private static final int NODES = 100;
    private static final String FAIL_FILL = "rgb(242, 154, 159)";
    private static final String PASS_FILL = "rgb(166, 227, 181)";

    private static String node(int i) {
        return String.format("node%03d", i);
    }

    private static ValidationReport twoRails() {
        Instant t0 = Instant.parse("2026-11-23T00:00:00Z");
        List<NodeOutcome> nodes = new ArrayList<>();
        for (int i = 0; i < NODES; i++) nodes.add(new NodeOutcome(node(i), NodeStatus.COMPLETED, "", List.of(), Optional.empty()));
        List<PairResult> pairs = new ArrayList<>();
        List<Finding> findings = new ArrayList<>();
        for (String rail : List.of("rail0", "rail1")) {
            boolean fast = rail.equals("rail0");
            String bar = fast ? "≥ 180 Gb/s" : "≥ 90.0 Gb/s";
            findings.add(Finding.of(PairKind.RDMA_BANDWIDTH.checkId(), Severity.PASS, rail, "every other pair within expect", bar, ""));
            for (int i = 0; i < NODES; i++) {
                for (int j = i + 1; j < NODES; j++) {
                    double v = fast ? 195 : 95;
                    if (fast && (i == 42 || j == 42)) v = 60;                  // a bad node on rail0
                    if (!fast && i == 7 && j == 90) v = 20;                     // a bad link on rail1
                    if (fast && i == 60 && j == 70) v = 185;                    // within rail0's bar, below its median
                    PairTest t = new PairTest(rail, node(i), node(j), "10.0.0.1", PairKind.RDMA_BANDWIDTH);
                    pairs.add(new PairResult(t, 1, 1, new PairOutcome.Measured(v), t0, Duration.ofSeconds(2)));
                    if (v < (fast ? 180 : 90)) {
                        findings.add(Finding.of(t.kind().checkId(), Severity.FAIL, t.subject(), v + " Gb/s", bar, ""));
                    }
                }
            }
        }
        List<Culprit> culprits = List.of(
                new Culprit(CulpritKind.NODE, "rail0", List.of("node042"), Severity.FAIL, "every pair of node042 at 60 Gb/s", "check its HCA"),
                new Culprit(CulpritKind.LINK, "rail1", List.of("node007", "node090"), Severity.FAIL, "one pair at 20 Gb/s", "reseat the cable"));
        return new ValidationReport(ValidationReport.SCHEMA_VERSION, "two-rails", "h100-100", "slurm", t0,
                Optional.of(t0.plusSeconds(600)), true, NODES - 1, nodes, List.of(), pairs, findings, culprits, List.of(), List.of());
    }

    @Test
    void twoRailsAtOneHundredNodesOpenOnOneHeatmapOfBoth() throws Exception {
        ValidationReportFiles.write(twoRails(), dir.resolve("big"));
        ValidationReportFiles.write(ValidationReportFixture.report(), dir.resolve("small"));
        try (HeadlessChromium chromium = HeadlessChromium.start(dir.resolve("profile"), 1280, 900)) {
            var driver = chromium.driver;
            driver.get(chromium.url(dir.resolve("big/index.html")));

            List<String> order = driver.findElements(By.cssSelector("#pairs > div")).stream()
                    .map(d -> d.getAttribute("id").isEmpty() ? d.getAttribute("data-network") : d.getAttribute("id")).toList();
            assertThat(order).containsExactly("all-rails", "rail0", "rail1");

            WebElement all = driver.findElement(By.cssSelector("#all-rails svg.heatmap.grouped.all-rails"));
            assertThat(all.getAttribute("data-networks")).isEqualTo("rail0 rail1");
            assertThat(all.getAttribute("data-group-size")).isEqualTo("4");
            assertThat(all.getSize().getWidth()).as("fits the screen").isLessThanOrEqualTo(1280);
            List<WebElement> cells = all.findElements(By.cssSelector("g.cell"));
            assertThat(cells).hasSize(25 * 26 / 2);

            // the bad node's group (node040…node043) is FAIL in its row and its column, from rail0; the bad link one
            // cell from rail1; every other cell PASS
            String badGroup = "node040…node043";
            for (WebElement c : cells) {
                boolean nodeCell = c.getAttribute("data-rows").equals(badGroup) || c.getAttribute("data-cols").equals(badGroup);
                boolean linkCell = c.getAttribute("data-rows").equals("node088…node091") && c.getAttribute("data-cols").equals("node004…node007");
                String fill = c.findElement(By.tagName("rect")).getCssValue("fill");
                assertThat(fill).as("%s × %s", c.getAttribute("data-rows"), c.getAttribute("data-cols"))
                        .isEqualTo(nodeCell || linkCell ? FAIL_FILL : PASS_FILL);
                if (nodeCell) assertThat(c.getAttribute("data-network")).isEqualTo("rail0");
                if (linkCell) {
                    assertThat(c.getAttribute("data-network")).isEqualTo("rail1");
                    assertThat(c.getAttribute("class")).contains("culprit");
                    assertThat(c.findElement(By.tagName("title")).getAttribute("textContent"))
                            .contains("32 of 32 pairs tested on 2 rails")
                            .contains("worst rail1 node007<->node090 rdma bandwidth (Gb/s): 20.0 Gb/s").contains("FAIL");
                }
            }
            // rail1's pairs are slower (95) than rail0's 185, but 185 is further below rail0's median (195)
            WebElement near = all.findElement(By.cssSelector("g.cell[data-rows='node068…node071'][data-cols='node060…node063']"));
            assertThat(near.getAttribute("data-network")).isEqualTo("rail0");
            assertThat(near.findElement(By.tagName("title")).getAttribute("textContent")).contains("node060<->node070").contains("185 Gb/s");

            // each rail's own grouped heatmap is one click away from the summary's caption, and its CSV beside it
            WebElement link = driver.findElement(By.cssSelector("#all-rails figcaption a[href='#map-rail1-rdma_bandwidth']"));
            assertThat(link.getText()).isEqualTo("rail1");
            link.click();
            WebElement rail1 = driver.findElement(By.id("map-rail1-rdma_bandwidth"));
            Number top = (Number) driver.executeScript("return arguments[0].getBoundingClientRect().top", rail1);
            assertThat(top.doubleValue()).as("scrolled to rail1's heatmap").isBetween(-1.0, 5.0);
            assertThat(rail1.findElements(By.cssSelector("svg.heatmap.grouped[data-network='rail1'] g.cell.culprit"))).hasSize(1);
            assertThat(rail1.findElement(By.cssSelector("figcaption a")).getAttribute("href")).endsWith("pairs-rail1-rdma_bandwidth.csv");
            assertThat(dir.resolve("big/pairs-rail1-rdma_bandwidth.csv")).exists();

            // printed, the summary fits the paper as the other heatmaps do
            driver.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("media", "print"));
            Number body = (Number) driver.executeScript("return document.body.clientWidth");
            assertThat(all.getSize().getWidth()).isLessThanOrEqualTo(body.intValue());

            // four nodes on two rails: each rail's heatmap pair by pair, no summary
            driver.get(chromium.url(dir.resolve("small/index.html")));
            assertThat(driver.findElements(By.id("all-rails"))).isEmpty();
            assertThat(driver.findElements(By.cssSelector("svg.heatmap.grouped"))).isEmpty();
        }
        assertThat(Files.size(dir.resolve("big/index.html"))).isLessThan(400_000);
    }
}

package dev.railyard.report;

import dev.railyard.model.Finding;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.print.PrintOptions;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the page reads in a real headless Chromium: the verdict and its reasons come first, then the measurements, then
 * the rest; a pair with no number is drawn in the legend's grey even when its finding is a FAIL; each heatmap shows
 * its bar; and the page prints to a PDF of a few pages whose heatmaps fit the paper.
 */
class ValidationReportReadingTest {

    @TempDir
    Path dir;

    /** The fixture with the failed pair's finding a FAIL, as validate writes it when a pair test gives no number. */
    private static ValidationReport withFailedPairJudgedFail() {
        ValidationReport r = ValidationReportFixture.report();
        List<Finding> pairFindings = new ArrayList<>(r.pairFindings());
        pairFindings.add(Finding.of("bench.tcp.bw", Severity.FAIL, "rail1 gpu2<->gpu4", "no result: connection refused",
                "≥ 20.0 Gb/s", "railyard bench tcp server"));
        return new ValidationReport(r.schemaVersion(), r.runId(), r.cluster(), r.launcher(), r.startedAt(), r.finishedAt(),
                r.complete(), r.rounds(), r.nodes(), r.clusterFindings(), r.pairs(), pairFindings, r.culprits(),
                r.benchFindings(), r.curves(), r.measurements());
    }

    @Test
    void verdictFirstThenMeasurementsAndTheHeatmapUsesItsLegend() throws Exception {
        ValidationReportFiles.write(withFailedPairJudgedFail(), dir.resolve("report"));
        try (HeadlessChromium chromium = HeadlessChromium.start(dir.resolve("profile"), 1280, 900)) {
            var driver = chromium.driver;
            driver.get(chromium.url(dir.resolve("report/index.html")));

            List<String> order = driver.findElements(By.cssSelector("body > header, body > section")).stream()
                    .map(e -> e.getAttribute("id") == null || e.getAttribute("id").isEmpty() ? e.getTagName() : e.getAttribute("id")).toList();
            assertThat(order).startsWith("header", "measurements", "culprits", "nodes", "pairs", "findings");
            WebElement verdict = driver.findElement(By.id("verdict-block"));
            assertThat(verdict.getLocation().getY()).as("the verdict is in the first screen").isLessThan(200);
            assertThat(verdict.getText()).startsWith("FAIL").contains("1 node not proven: gpu4 (unreachable)");
            assertThat(driver.findElement(By.cssSelector("#measurements table")).getText())
                    .contains("NCCL all_reduce busbw at 1 GiB").contains("4.31 GB/s");

            WebElement failed = driver.findElement(By.cssSelector("svg.heatmap[data-network='rail1'] g.cell.pair[data-a='gpu4'][data-b='gpu2']"));
            String grey = driver.findElement(By.cssSelector(".legend .key.nonumber")).getCssValue("background-color");
            assertThat(failed.findElement(By.tagName("rect")).getCssValue("fill")).isEqualTo("rgb(201, 205, 210)");
            assertThat(grey).isIn("rgb(201, 205, 210)", "rgba(201, 205, 210, 1)");
            assertThat(failed.findElement(By.tagName("title")).getAttribute("textContent")).contains("FAIL");

            List<WebElement> bars = driver.findElements(By.cssSelector("#pairs figcaption .bar"));
            assertThat(bars).hasSize(3).allSatisfy(b -> assertThat(b.isDisplayed()).isTrue());
            assertThat(bars.getFirst().getText()).isEqualTo("bar ≥ 36.0 Gb/s");
            assertThat(driver.findElements(By.cssSelector("p.none"))).as("no empty section says it is empty").isEmpty();

            // Printed: a few A4 pages, and in print media every heatmap fits the page's width.
            String pdf = driver.print(new PrintOptions()).getContent();
            String raw = new String(Base64.getDecoder().decode(pdf), StandardCharsets.ISO_8859_1);
            assertThat(raw).startsWith("%PDF-");
            long pages = Pattern.compile("/Type\\s*/Page[^s]").matcher(raw).results().count();
            assertThat(pages).isBetween(1L, 6L);
            driver.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("media", "print"));
            Number body = (Number) driver.executeScript("return document.body.clientWidth");
            for (WebElement svg : driver.findElements(By.cssSelector("svg"))) {
                assertThat(svg.getSize().getWidth()).isLessThanOrEqualTo(body.intValue());
            }
        }
    }
}

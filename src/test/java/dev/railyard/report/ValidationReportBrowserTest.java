package dev.railyard.report;

import dev.railyard.model.PairResult;
import dev.railyard.model.ValidationReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report page in a real headless Chromium (Debian's chromium + chromedriver through Selenium): it loads from a
 * file with no console error, every heatmap has one cell per pair of its nodes and a coloured cell per tested pair,
 * and the culprit link is drawn with its outline in the heatmap and its card in the culprit section.
 */
class ValidationReportBrowserTest {

    @TempDir
    Path dir;

    @Test
    void pageLoadsCleanShowsEveryPairAndHighlightsTheCulprit() throws Exception {
        ValidationReport report = ValidationReportFixture.report();
        ValidationReportFiles.write(report, dir.resolve("report"));
        try (HeadlessChromium chromium = HeadlessChromium.start(dir.resolve("profile"), 1280, 2400)) {
            var driver = chromium.driver;
            driver.get(chromium.url(dir.resolve("report/index.html")));
            assertThat(driver.getTitle()).isEqualTo("Railyard validate: homelab-v100 <4 nodes> (" + report.runId() + ")");

            List<LogEntry> console = driver.manage().logs().get(LogType.BROWSER).getAll();
            assertThat(console).as("browser console").noneMatch(e -> e.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue());

            List<WebElement> maps = driver.findElements(By.cssSelector("svg.heatmap"));
            assertThat(maps).hasSize(3);
            for (WebElement map : maps) {
                String network = map.getAttribute("data-network");
                String kind = map.getAttribute("data-kind");
                Set<Set<String>> pairs = report.pairs().stream()
                        .filter(p -> p.test().network().equals(network) && p.test().kind().name().equals(kind))
                        .map(PairResult::test).map(t -> Set.of(t.client(), t.server())).collect(Collectors.toSet());
                List<WebElement> tested = map.findElements(By.cssSelector("g.cell.pair"));
                assertThat(tested).as("%s %s: one coloured cell per tested pair", network, kind).hasSize(pairs.size());
                assertThat(tested.stream().map(c -> Set.of(c.getAttribute("data-a"), c.getAttribute("data-b"))))
                        .containsExactlyInAnyOrderElementsOf(pairs);
                // 4 nodes on the axis (gpu4 unreachable but shown): 4 choose 2 cells.
                assertThat(map.findElements(By.cssSelector("g.cell"))).hasSize(6);
            }

            List<WebElement> culpritCells = driver.findElements(By.cssSelector("g.cell.culprit"));
            assertThat(culpritCells).singleElement().satisfies(cell -> {
                assertThat(Set.of(cell.getAttribute("data-a"), cell.getAttribute("data-b"))).isEqualTo(Set.of("gpu1", "gpu3"));
                WebElement rect = cell.findElement(By.tagName("rect"));
                assertThat(rect.getCssValue("stroke-width")).isEqualTo("4px");
                assertThat(rect.getCssValue("stroke")).isEqualTo("rgb(130, 7, 30)");
                assertThat(rect.getCssValue("fill")).isEqualTo("rgb(242, 154, 159)");
                assertThat(cell.findElement(By.tagName("title")).getAttribute("textContent"))
                        .contains("9.12 Gb/s").contains("earlier: 9.10 Gb/s").contains("FAIL").contains("culprit");
            });
            WebElement card = driver.findElement(By.cssSelector("#culprits .culprit"));
            assertThat(card.isDisplayed()).isTrue();
            assertThat(card.getText()).contains("link gpu1<->gpu3 on rail0").contains("reseat or replace the QSFP+ cable");
            assertThat(card.getCssValue("border-left-color")).isIn("rgb(207, 34, 46)", "rgba(207, 34, 46, 1)");
            assertThat(driver.findElement(By.id("verdict")).getText()).isEqualTo("FAIL");

            // The console check above can fail: a page that logs an error is seen by the same reading.
            Path noisy = Files.writeString(dir.resolve("noisy.html"),
                    "<!DOCTYPE html><title>noisy</title><script>console.error('seen')</script>");
            driver.get(chromium.url(noisy));
            assertThat(driver.manage().logs().get(LogType.BROWSER).getAll())
                    .anySatisfy(e -> assertThat(e.getMessage()).contains("seen"));
            driver.get(chromium.url(dir.resolve("report/index.html")));

            Path png = dir.resolve("report.png");
            Files.write(png, driver.getScreenshotAs(OutputType.BYTES));
            byte[] bytes = Files.readAllBytes(png);
            assertThat(bytes.length).isGreaterThan(10_000);
            assertThat(new String(bytes, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
        }
    }

    /**
     * Not a check: the tool behind docs/validate-report-*.png. With -Dreport.dir=DIR -Dreport.png=FILE it opens
     * DIR/index.html in the same headless Chromium and saves the whole page as FILE; without them it is skipped.
     */
    @Test
    void screenshotOfAReportDirectory() throws Exception {
        String reportDir = System.getProperty("report.dir");
        String target = System.getProperty("report.png");
        org.junit.jupiter.api.Assumptions.assumeTrue(reportDir != null && target != null,
                "screenshot tool: pass -Dreport.dir=DIR -Dreport.png=FILE");
        try (HeadlessChromium chromium = HeadlessChromium.start(dir.resolve("profile"), 1280, 900)) {
            chromium.driver.get(chromium.url(Path.of(reportDir, ValidationReportFiles.HTML)));
            assertThat(chromium.driver.manage().logs().get(LogType.BROWSER).getAll()).isEmpty();
            Files.write(Path.of(target), chromium.fullPage());
        }
    }

    /**
     * Not a check: how long a report directory's page takes to load in headless Chromium (-Dreport.dir=DIR), as
     * docs/benchmarks.md records for the 512-host simulated run. Prints the wall time of the load (navigation to the
     * load event, the page laid out) five times; skipped without the property.
     */
    @Test
    void renderTimeOfAReportDirectory() throws Exception {
        String reportDir = System.getProperty("report.dir");
        org.junit.jupiter.api.Assumptions.assumeTrue(reportDir != null, "render timer: pass -Dreport.dir=DIR");
        Path page = Path.of(reportDir, ValidationReportFiles.HTML);
        try (HeadlessChromium chromium = HeadlessChromium.start(dir.resolve("profile"), 1280, 900)) {
            for (int i = 0; i < 5; i++) {
                long t0 = System.nanoTime();
                chromium.driver.get(chromium.url(page));
                // the first layout of the whole page: reading its height forces it
                Number height = (Number) chromium.driver.executeScript("return document.documentElement.scrollHeight");
                long ms = (System.nanoTime() - t0) / 1_000_000;
                Number load = (Number) chromium.driver.executeScript(
                        "return performance.getEntriesByType('navigation')[0].loadEventEnd");
                System.out.printf(java.util.Locale.ROOT, "render %s: %d ms to load and lay out (loadEventEnd %.0f ms), "
                        + "%d bytes, page %d px high%n", page, ms, load.doubleValue(), Files.size(page), height.intValue());
            }
        }
    }
}

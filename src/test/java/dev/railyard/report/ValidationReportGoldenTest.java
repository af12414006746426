package dev.railyard.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.model.ValidationReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The four report files of the fixture run against golden files in src/test/resources/golden/validate/ (regenerate
 * with -Dgolden.update=true and read the diff), plus what a golden cannot say by itself: the JUnit XML parses with
 * the right counts, the JSON has its schemaVersion and verdict, the page fetches nothing and escapes what it shows.
 */
class ValidationReportGoldenTest {

    private static final Path GOLDEN_DIR = Path.of("src/test/resources/golden/validate");

    @TempDir
    Path dir;

    private static void assertGolden(String name, String actual) throws IOException {
        Path file = GOLDEN_DIR.resolve(name);
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(GOLDEN_DIR);
            Files.writeString(file, actual, StandardCharsets.UTF_8);
        }
        assertThat(file).as("golden %s (regenerate with -Dgolden.update=true)", file).exists();
        assertThat(actual).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    }

    @Test
    void writesTheReportFilesAsTheGoldensSay() throws IOException {
        List<Path> written = ValidationReportFiles.write(ValidationReportFixture.report(), dir.resolve("run"));
        assertThat(written).extracting(p -> p.getFileName().toString())
                .containsExactly("index.html", "report.md", "report.json", "junit.xml", "pairs.jsonl.gz");
        assertThat(dir.resolve("run")).isDirectoryNotContaining("glob:**.tmp");
        for (Path p : written.subList(0, 4)) assertGolden(p.getFileName().toString(), Files.readString(p));
        // the side file holds every pair test, one JSON object a line, with the fields of report.json's pairs[]
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(written.get(4)))) {
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            assertThat(lines).hasSize(ValidationReportFixture.report().pairs().size());
            var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
            var inReport = mapper.readTree(Files.readString(written.get(2))).path("pairs");
            for (int i = 0; i < lines.size(); i++) assertThat(mapper.readTree(lines.get(i))).isEqualTo(inReport.get(i));
        }
    }

    @Test
    void pageIsSelfContainedAndEscaped() {
        String html = ValidationHtml.render(ValidationReportFixture.report());
        assertThat(html).doesNotContainIgnoringCase("<script").doesNotContainIgnoringCase("<link")
                .doesNotContain("@import").doesNotContain("url(");
        Matcher urls = Pattern.compile("https?://[^\"' <]+").matcher(html);
        while (urls.find()) assertThat(urls.group()).isEqualTo("http://www.w3.org/2000/svg");
        assertThat(html).contains("homelab-v100 &lt;4 nodes&gt;").doesNotContain("<4 nodes>")
                .contains("not reached: &lt;no inventory&gt; &amp; &quot;no facts&quot;");
    }

    @Test
    void heatmapsHaveOneCellPerPairAndMarkTheCulpritLink() {
        List<PairMatrix> matrices = PairMatrix.of(ValidationReportFixture.report());
        assertThat(matrices).extracting(m -> m.network() + " " + m.kind())
                .containsExactly("rail0 RDMA_BANDWIDTH", "rail0 RDMA_LATENCY", "rail1 TCP_BANDWIDTH");
        for (PairMatrix m : matrices) {
            // gpu4 is unreachable: it stays on the axis so its untested row shows.
            assertThat(m.nodes()).containsExactly("gpu1", "gpu2", "gpu3", "gpu4");
            assertThat(m.cells()).hasSize(6);
        }
        PairMatrix bw = matrices.getFirst();
        assertThat(bw.testedCells()).isEqualTo(3);
        // 36.43, 9.12 (the retest, not the first 9.10) and 36.38.
        assertThat(bw.median()).contains(36.38);
        assertThat(bw.cells().stream().filter(PairMatrix.Cell::culprit))
                .singleElement().satisfies(c -> {
                    assertThat(List.of(c.a(), c.b())).containsExactlyInAnyOrder("gpu1", "gpu3");
                    assertThat(c.attempts()).hasSize(2);
                    assertThat(c.value()).contains(9.12);
                });
        // The latency of the culprit link met expect: the culprit marks only cells that are bad.
        assertThat(matrices.get(1).cells()).noneMatch(PairMatrix.Cell::culprit);
        assertThat(matrices.get(2).testedCells()).isEqualTo(4);
    }

    @Test
    void junitCountsFailuresAndSkipsTheUnreachableNode() throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(
                new java.io.ByteArrayInputStream(ValidationJUnit.render(ValidationReportFixture.report())
                        .getBytes(StandardCharsets.UTF_8)));
        Element root = doc.getDocumentElement();
        assertThat(root.getTagName()).isEqualTo("testsuites");
        // One FAIL pair finding (bandwidth of gpu1<->gpu3) and the FAIL link culprit.
        assertThat(root.getAttribute("failures")).isEqualTo("2");
        NodeList cases = doc.getElementsByTagName("testcase");
        int nodeSkips = 0;
        for (int i = 0; i < cases.getLength(); i++) {
            Element c = (Element) cases.item(i);
            if (c.getAttribute("classname").equals("validate.node") && c.getElementsByTagName("skipped").getLength() == 1) {
                assertThat(c.getAttribute("name")).isEqualTo("gpu4");
                nodeSkips++;
            }
        }
        assertThat(nodeSkips).isEqualTo(1);
        assertThat(Integer.parseInt(root.getAttribute("tests"))).isEqualTo(cases.getLength());
    }

    @Test
    void jsonCarriesSchemaVersionVerdictAndSubjects() throws Exception {
        JsonNode json = new ObjectMapper().readTree(ValidationJson.render(ValidationReportFixture.report()));
        assertThat(json.get("schemaVersion").asInt()).isEqualTo(ValidationReport.SCHEMA_VERSION);
        assertThat(json.get("verdict").asText()).isEqualTo("FAIL");
        assertThat(json.get("culprits").get(0).get("subject").asText()).isEqualTo("link gpu1<->gpu3 on rail0");
        assertThat(json.get("pairs").get(0).get("test").get("subject").asText()).isEqualTo("rail0 gpu1<->gpu2");
        assertThat(json.get("pairs").get(0).get("outcome").get("value").asDouble()).isEqualTo(36.43);
        assertThat(json.get("nodes").get(0).get("facts").get("ncclVersion").get("reason").asText())
                .isEqualTo("libnccl.so.2 not found");
    }
}

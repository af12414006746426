package dev.railyard.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.model.Finding;
import dev.railyard.model.NotJudged;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FindingsReportTest {

    private static final List<Finding> FINDINGS = List.of(
            Finding.of("rdma.port.rate", Severity.FAIL, "mlx4_0:2", "10 Gb/sec (1X QDR)", "40 Gb/sec (spec)",
                    "replace the QSFP+ cable/DAC"),
            Finding.of("host.cpu.governor", Severity.WARN, "gpuserver1", "powersave on 40 CPUs", "performance",
                    "cpupower frequency-set -g performance"),
            Finding.of("gpu.ecc.uncorrected", Severity.UNKNOWN, "GPU0", "absent (NVML <unavailable> & \"x\")", "0", ""),
            new Finding("rdma.roce.gid", Severity.PASS, "mlx4_0:2", "GID index 2 = RoCE v2", "RoCE v2 GID",
                    "ib_write_bw --ib-dev=mlx4_0 --ib-port=2 --gid-index=2"));

    @Test
    void textGroupsBySeverityWithFixAndUseLines() {
        String text = FindingsText.render("gpuserver1", FINDINGS);
        assertThat(text.indexOf("FAIL (1)")).isLessThan(text.indexOf("WARN (1)"));
        assertThat(text.indexOf("WARN (1)")).isLessThan(text.indexOf("UNKNOWN (1)"));
        assertThat(text).contains("      fix: replace the QSFP+ cable/DAC\n")
                .contains("      use: ib_write_bw --ib-dev=mlx4_0 --ib-port=2 --gid-index=2\n")
                .endsWith("1 FAIL, 1 WARN, 1 UNKNOWN, 0 INFO, 1 PASS\n");
    }

    @Test
    void jsonIsOneDocumentWithNodeSummaryNotJudgedAndFindings() throws Exception {
        List<NotJudged> notJudged = List.of(new NotJudged("spec", "no --spec"));
        JsonNode root = Json.mapper().readTree(FindingsJson.render("gpuserver1", FINDINGS, notJudged));
        List<String> keys = new java.util.ArrayList<>();
        root.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("schemaVersion", "node", "summary", "notJudged", "findings");
        assertThat(root.get("schemaVersion").asInt()).isEqualTo(Json.SCHEMA_VERSION);
        assertThat(root.get("node").asText()).isEqualTo("gpuserver1");
        assertThat(root.at("/summary/FAIL").asInt()).isEqualTo(1);
        assertThat(root.at("/summary/INFO").isInt()).as("every severity, zeros too").isTrue();
        assertThat(root.at("/summary/INFO").asInt()).isZero();
        assertThat(root.at("/notJudged/0/area").asText()).isEqualTo("spec");
        JsonNode findings = root.get("findings");
        assertThat(findings.get(0).get("id").asText()).isEqualTo("rdma.port.rate");
        assertThat(findings.get(0).get("severity").asText()).isEqualTo("FAIL");
        assertThat(findings.get(3).get("remediation").asText()).isEqualTo("ib_write_bw --ib-dev=mlx4_0 --ib-port=2 --gid-index=2");
    }

    @Test
    void longObservationsWrapWithinTheWidthAndFixCommandsStayWhole() {
        String cause = "no RDMA device mlx4_0: NIC 0000:04:00.0 (mlx4_core) has no RDMA driver loaded and more words "
                + "to make it longer than any narrow terminal";
        String command = "printf 'network:\\n  version: 2\\n' > /etc/netplan/90-railyard-ens6d1-mtu.yaml && netplan apply";
        List<Finding> one = List.of(Finding.of("rdma.port.state", Severity.FAIL, "mlx4_0:2", cause, "port of network rail0",
                "# a comment that is long enough to be wrapped onto a second line at sixty columns wide\n" + command));
        String text = FindingsText.render("gpuserver1", one, List.of(), new TextStyle(60, false));
        for (String line : text.lines().toList()) {
            if (!line.contains(command)) assertThat(line.length()).as(line).isLessThanOrEqualTo(60);
        }
        List<String> lines = text.lines().toList();
        int header = lines.indexOf(lines.stream().filter(l -> l.contains("OBSERVED")).findFirst().orElseThrow());
        int from = lines.get(header).indexOf("OBSERVED");
        int to = lines.get(header).indexOf("EXPECTED");
        String observedColumn = lines.subList(header + 1, lines.size()).stream().takeWhile(l -> !l.contains("fix:"))
                .map(l -> l.substring(from, Math.min(to, l.length())).trim()).collect(java.util.stream.Collectors.joining(" "));
        assertThat(observedColumn).as("wrapped, not cut").isEqualTo(cause);
        assertThat(text).contains("\n           " + command + "\n").doesNotContain("...").doesNotContain("\u001b[");
        assertThat(text).contains("      fix: # a comment").contains("\n           # ");
        assertThat(FindingsText.render("n", one, List.of(), new TextStyle(100, true))).contains("\u001b[31mFAIL (1)\u001b[0m");
    }

    @Test
    void notJudgedAreasAreListedAndNamedInTheSummary() {
        String text = FindingsText.render("gpuserver1", List.of(), List.of(new NotJudged("gpu", "no GPU found"),
                new NotJudged("spec", "no --spec")), TextStyle.PLAIN);
        assertThat(text).contains("NOT JUDGED (2)\n  gpu   no GPU found\n  spec  no --spec\n")
                .endsWith("0 FAIL, 0 WARN, 0 UNKNOWN, 0 INFO, 0 PASS; not judged: gpu, spec\n");
    }

    @Test
    void junitIsWellFormedWithFailureSkippedAndSystemOut() throws Exception {
        String xml = JUnitReport.render("gpuserver1", FINDINGS);
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        var suite = doc.getDocumentElement();
        assertThat(suite.getAttribute("tests")).isEqualTo("4");
        assertThat(suite.getAttribute("failures")).isEqualTo("1");
        assertThat(suite.getAttribute("skipped")).isEqualTo("1");
        assertThat(doc.getElementsByTagName("failure").item(0).getTextContent()).contains("fix: replace the QSFP+ cable/DAC");
        assertThat(((org.w3c.dom.Element) doc.getElementsByTagName("skipped").item(0)).getAttribute("message"))
                .isEqualTo("could not be judged: absent (NVML <unavailable> & \"x\")");
        assertThat(doc.getElementsByTagName("system-out").getLength()).isEqualTo(2);
    }
}

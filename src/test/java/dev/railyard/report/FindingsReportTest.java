package dev.railyard.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.model.Finding;
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
    void jsonIsAnArrayOfFindings() throws Exception {
        JsonNode root = Json.mapper().readTree(FindingsJson.render(FINDINGS));
        assertThat(root.isArray()).isTrue();
        assertThat(root.get(0).get("id").asText()).isEqualTo("rdma.port.rate");
        assertThat(root.get(0).get("severity").asText()).isEqualTo("FAIL");
        assertThat(root.get(3).get("remediation").asText()).isEqualTo("ib_write_bw --ib-dev=mlx4_0 --ib-port=2 --gid-index=2");
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

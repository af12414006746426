package dev.railyard.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.collect.NetCollector;
import dev.railyard.model.NetInterface;
import dev.railyard.model.Reading;
import dev.railyard.platform.FileNameText;
import dev.railyard.platform.HostRoot;
import dev.railyard.report.InventoryJson;
import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.platform.Clock;
import dev.railyard.testing.RealTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real 4 x H200 capture with its two ifb interfaces renamed to names that are not UTF-8 ("ifb\xff", "ifb\xfe")
 * and one with a backslash, as the kernel allows: each is listed, read and labelled under an escaped name that
 * tells it from the others, never dropped and never sharing a series.
 */
class OddInterfaceNamesTest {

    @TempDir
    Path dir;

    private void renamedCapture() throws Exception {
        try (Stream<Path> s = Files.walk(Path.of("src/test/resources/trees/h200x4-capture"))) {
            Path from = Path.of("src/test/resources/trees/h200x4-capture");
            for (Path p : s.toList()) {
                Path to = dir.resolve(from.relativize(p).toString());
                if (Files.isSymbolicLink(p)) Files.createSymbolicLink(to, Files.readSymbolicLink(p));
                else if (Files.isDirectory(p)) Files.createDirectories(to);
                else Files.copy(p, to, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        // bash writes the raw bytes ($'\xff'); the JDK cannot name such a file on its own
        String script = """
                set -e
                cd sys/devices/virtual/net
                mv ifb0 $'ifb\\xff'; mv ifb1 $'ifb\\xfe'; cp -r lo 'lo\\x41'
                cd ../../../class/net
                rm ifb0 ifb1
                ln -s ../../devices/virtual/net/$'ifb\\xff' $'ifb\\xff'
                ln -s ../../devices/virtual/net/$'ifb\\xfe' $'ifb\\xfe'
                ln -s '../../devices/virtual/net/lo\\x41' 'lo\\x41'
                """;
        Process p = new ProcessBuilder("bash", "-c", script).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
    }

    @Test
    void namesThatAreNotUtf8AreListedAndReadUnderEscapedNames() throws Exception {
        renamedCapture();
        HostRoot root = HostRoot.at(dir);
        List<NetInterface> nics = new NetCollector().collect(root);
        assertThat(nics).extracting(NetInterface::name)
                .containsExactlyInAnyOrder("eth0", "ifb\\xfe", "ifb\\xff", "lo", "lo\\x5cx41");
        for (NetInterface n : nics) {
            assertThat(n.mtu()).as(n.name()).isInstanceOf(Reading.Present.class);
            assertThat(n.operState()).as(n.name()).isInstanceOf(Reading.Present.class);
        }
        assertThat(FileNameText.bytes("ifb\\xff")).containsExactly('i', 'f', 'b', 0xff);
        assertThat(FileNameText.bytes("lo\\x5cx41")).containsExactly('l', 'o', '\\', 'x', '4', '1');
    }

    @Test
    void theEscapedNamesAreEachTheirOwnSeriesInMetricsAndValidJson() throws Exception {
        renamedCapture();
        String metrics = AgentMetricsTest.metricsText(AgentMetricsTest.sampleOnce(dir));
        List<String> mtus = metrics.lines().filter(l -> l.startsWith("node_network_mtu_bytes{")).toList();
        assertThat(mtus).anyMatch(l -> l.contains("device=\"ifb\\\\xff\""))
                .anyMatch(l -> l.contains("device=\"ifb\\\\xfe\""))
                .anyMatch(l -> l.contains("device=\"lo\\\\x5cx41\""))
                .hasSize(5);
        Path promtool = RealTool.require("promtool", "prometheus");
        Process p = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
        p.getOutputStream().write(metrics.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        // 0 clean, 3 lint only (the DCGM-compatible names); 1 is a body promtool cannot parse
        assertThat(p.exitValue()).as(out).isIn(0, 3);

        HostRoot root = HostRoot.at(dir);
        String json = InventoryJson.write(new InventoryCollector(GpuCollector.forRoot(root), Clock.system()).collect(root));
        JsonNode interfaces = new ObjectMapper().readTree(json).path("interfaces");
        List<String> names = new java.util.ArrayList<>();
        interfaces.forEach(n -> names.add(n.path("name").asText()));
        assertThat(names).contains("ifb\\xff", "ifb\\xfe", "lo\\x5cx41");
    }
}

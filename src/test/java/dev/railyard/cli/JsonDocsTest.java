package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.model.BandwidthResult;
import dev.railyard.model.LatencyResult;
import dev.railyard.model.NcclBenchResult;
import dev.railyard.report.InventoryTextTrees;
import dev.railyard.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/json.md against real output: each "Top-level keys (X):" line against what X writes (or, for the benches that
 * need hardware, the record it serialises), and one JSON type per field across every tree and tool sample we have.
 */
class JsonDocsTest {

    private static final Path DOC = Path.of("docs/json.md");

    static Map<String, List<String>> documentedKeys() throws IOException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(DOC)) {
            if (!line.startsWith("Top-level keys (")) continue;
            String what = line.substring("Top-level keys (".length(), line.indexOf("):"));
            out.put(what, Arrays.stream(line.substring(line.indexOf("):") + 2).split(",")).map(String::trim).toList());
        }
        return out;
    }

    private static String run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(new StringWriter()));
        cl.execute(args);
        return out.toString();
    }

    private static List<String> keys(JsonNode doc) {
        List<String> keys = new ArrayList<>();
        doc.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    private static List<String> recordKeys(Class<? extends Record> type) {
        return Stream.concat(Stream.of("schemaVersion"), Arrays.stream(type.getRecordComponents()).map(c -> c.getName())).toList();
    }

    private static List<String> withFindings(Class<? extends Record> type) {
        return Stream.concat(recordKeys(type).stream(), Stream.of("findings")).toList();
    }

    @Test
    void everyDocumentedCommandHasItsKeysInTheDocInOrder(@TempDir Path dir) throws IOException {
        Map<String, List<String>> doc = documentedKeys();
        Path root = InventoryTextTrees.gpudH100(dir);
        assertThat(keys(Json.mapper().readTree(run("inventory", "--root", root.toString(), "--format", "json"))))
                .containsExactlyElementsOf(doc.get("inventory"));
        assertThat(keys(Json.mapper().readTree(run("check", "--root", root.toString(), "--format", "json"))))
                .containsExactlyElementsOf(doc.get("check"));
        assertThat(keys(Json.mapper().readTree(run("diagnose", "src/test/resources/bench/perftest/seed-000-ib_write_bw-mlx4-40g.txt",
                "--format", "json")))).containsExactlyElementsOf(doc.get("diagnose"));
        // bench tcp and nccl write their result's fields with the verdicts after them (@JsonUnwrapped)
        assertThat(withFindings(BandwidthResult.class)).containsExactlyElementsOf(doc.get("bench tcp bandwidth"));
        assertThat(withFindings(LatencyResult.class)).containsExactlyElementsOf(doc.get("bench tcp latency"));
        assertThat(withFindings(NcclBenchResult.class)).containsExactlyElementsOf(doc.get("bench nccl"));
        assertThat(recordKeys(BenchRdmaCommand.Report.class)).containsExactlyElementsOf(doc.get("bench rdma"));
        assertThat(recordKeys(BenchStorageCommand.Report.class)).containsExactlyElementsOf(doc.get("bench storage"));
        assertThat(Arrays.stream(dev.railyard.model.ValidationReport.class.getRecordComponents()).map(c -> c.getName()).toList())
                .containsExactlyElementsOf(doc.get("validate report"));
        assertThat(Arrays.stream(dev.railyard.agent.ClusterStatus.Report.class.getRecordComponents()).map(c -> c.getName()).toList())
                .containsExactlyElementsOf(doc.get("status"));
        assertThat(recordKeys(dev.railyard.plan.Calculation.class)).containsExactlyElementsOf(doc.get("plan"));
        assertThat(doc.get("bench gpu")).containsExactly("schemaVersion", "findings", "run");
        assertThat(keys(Json.mapper().readTree(run("apply", "--spec", "examples/s4-h100-hdr.yaml", "--node", "compute01",
                "--root", dir.toString(), "--format", "json")))).containsExactlyElementsOf(doc.get("apply"));
        assertThat(recordKeys(ApplyOnNodes.Report.class)).containsExactlyElementsOf(doc.get("apply across nodes"));
    }

    /** Path (array elements as []) to the JSON types seen there; null goes with any one type. */
    private static void types(JsonNode n, String path, Map<String, Set<String>> seen) {
        if (n.isNull()) return;
        String type = n.isIntegralNumber() ? "integer" : n.isNumber() ? "number" : n.getNodeType().name();
        seen.computeIfAbsent(path, p -> new TreeSet<>()).add(type);
        if (n.isArray()) n.forEach(e -> types(e, path + "[]", seen));
        if (n.isObject()) {
            // Maps keyed by data (counters, governors, modules) share one element path.
            boolean map = path.endsWith(".counters") || path.endsWith("cpuGovernors.value") || path.endsWith("modules.value")
                    || path.endsWith(".summary");
            n.fields().forEachRemaining(e -> types(e.getValue(), path + "." + (map ? "*" : e.getKey()), seen));
        }
    }

    @Test
    void everyFieldKeepsOneTypeAcrossTreesAndReadingsAreAlwaysObjectsWithAState(@TempDir Path dir) throws IOException {
        List<Path> roots = List.of(InventoryTextTrees.gpudH100(dir.resolve("a")), InventoryTextTrees.nodeExporter(dir.resolve("b")),
                InventoryTextTrees.procfs(dir.resolve("c")), InventoryTextTrees.nccl1573Roce(dir.resolve("d")));
        Map<String, Set<String>> inventory = new HashMap<>();
        Map<String, Set<String>> check = new HashMap<>();
        for (Path root : roots) {
            JsonNode inv = Json.mapper().readTree(run("inventory", "--root", root.toString(), "--format", "json"));
            assertThat(inv.get("schemaVersion").asInt()).isEqualTo(Json.SCHEMA_VERSION);
            types(inv, "", inventory);
            types(Json.mapper().readTree(run("check", "--root", root.toString(), "--format", "json")), "", check);
            assertThat(inv.at("/host/os/state").asText()).isIn("present", "absent", "failed");
        }
        assertThat(inventory).allSatisfy((path, t) -> assertThat(t).as(path).hasSize(1));
        assertThat(check).allSatisfy((path, t) -> assertThat(t).as(path).hasSize(1));
        assertThat(inventory.get(".rdmaDevices[].ports[].state")).containsExactly("OBJECT");
        assertThat(inventory).containsKey(".rdmaDevices[].ports[].state.value.name");
    }

    @Test
    void diagnoseKeepsOneTypePerFieldForEachTool() throws IOException {
        Map<String, Map<String, Set<String>>> byTool = new HashMap<>();
        List<Path> samples = new ArrayList<>();
        for (String d : List.of("bench", "ib-tools", "iperf3", "sockperf", "fio", "kernel-log")) {
            try (Stream<Path> files = Files.walk(Path.of("src/test/resources", d))) {
                files.filter(Files::isRegularFile).forEach(samples::add);
            }
        }
        {
            for (Path f : samples) {
                String out = run("diagnose", f.toString(), "--format", "json");
                if (out.isBlank()) continue;
                JsonNode doc = Json.mapper().readTree(out);
                assertThat(doc.get("schemaVersion").asInt()).as(f.toString()).isEqualTo(Json.SCHEMA_VERSION);
                if (doc.has("recognised") && !doc.get("recognised").asBoolean()) {
                    assertThat(keys(doc)).containsExactlyElementsOf(documentedKeys().get("diagnose, not recognised"));
                    continue;
                }
                types(doc, "", byTool.computeIfAbsent(doc.get("tool").asText(), t -> new HashMap<>()));
            }
        }
        assertThat(byTool).hasSizeGreaterThan(3);
        byTool.forEach((tool, seen) -> assertThat(seen).allSatisfy((path, t) -> assertThat(t).as(tool + path).hasSize(1)));
    }
}

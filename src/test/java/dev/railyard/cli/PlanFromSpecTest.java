package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.plan.Fabric;
import dev.railyard.report.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** plan with --spec: each node's GPUs as the node says, the fabric from the compute network, the new presets. */
class PlanFromSpecTest {

    private static JsonNode json(String... args) throws Exception {
        CliRun r = CliRun.of(args);
        assertThat(r.code()).as(r.err()).isZero();
        return Json.mapper().readTree(r.out());
    }

    private static double input(JsonNode doc, String name) {
        for (JsonNode q : doc.get("inputs")) if (q.get("name").asText().equals(name)) return q.get("value").asDouble();
        throw new AssertionError("no input " + name);
    }

    private static double result(JsonNode doc, String name) {
        for (JsonNode q : doc.get("results")) if (q.get("name").asText().equals(name)) return q.get("value").asDouble();
        throw new AssertionError("no result " + name);
    }

    @Test
    void s3sMixedGpusAndQdrFabricComeFromTheSpec() throws Exception {
        JsonNode doc = json("plan", "allreduce", "--spec", "examples/s3-r730-ib-qdr.yaml", "--size", "100M", "--format", "json");
        assertThat(input(doc, "gpus")).isEqualTo(5);
        assertThat(input(doc, "gpus_per_node")).isEqualTo(2);
        assertThat(input(doc, "link_bandwidth")).isEqualTo(4);
        assertThat(result(doc, "nodes")).isEqualTo(3);
        assertThat(result(doc, "bus_bandwidth_bound")).isEqualTo(4);
        assertThat(doc.get("notes").toString()).contains("fabric from the spec's network ib (InfiniBand, 40 Gb/s): ib-qdr")
                .contains("GPUs per node as each node says: r720 2, r730-1 2, r730-2 1");
    }

    @Test
    void mixedNodesPowerIsTheSumOfEachNodesGpus() throws Exception {
        JsonNode doc = json("plan", "power", "--spec", "examples/s3-r730-ib-qdr.yaml", "--gpu-watts", "70", "--host-watts", "400", "--format", "json");
        assertThat(result(doc, "gpu_power")).isEqualTo(0.35); // (2 + 2 + 1) x 70 W
        assertThat(result(doc, "it_power")).isEqualTo(1.55); // 0.35 kW + 3 x 400 W
        assertThat(result(doc, "node_power")).isEqualTo(540); // the largest node: 2 x 70 + 400
        assertThat(doc.get("formula").toString()).contains("sum of each node's GPUs");
    }

    @Test
    void s4FromTheSpecIsTheSeedsFigure() throws Exception {
        JsonNode doc = json("plan", "allreduce", "--spec", "examples/s4-h100-hdr.yaml", "--format", "json");
        assertThat(input(doc, "gpus")).isEqualTo(64);
        assertThat(input(doc, "gpus_per_node")).isEqualTo(8);
        assertThat(result(doc, "bus_bandwidth_bound")).isEqualTo(25);
        JsonNode power = json("plan", "power", "--spec", "examples/s4-h100-hdr.yaml", "--gpu-watts", "700", "--format", "json");
        assertThat(result(power, "gpu_power")).isEqualTo(44.8);
        // an option given beside the spec wins
        assertThat(input(json("plan", "allreduce", "--spec", "examples/s4-h100-hdr.yaml", "--gpus", "16", "--format", "json"), "gpus")).isEqualTo(16);
    }

    @Test
    void newPresetsAndTheLinkMapping() {
        assertThat(Fabric.parse("ib-qdr").gbytesPerSecond).isEqualTo(4);
        assertThat(Fabric.parse("ib-edr").gbytesPerSecond).isEqualTo(12.5);
        assertThat(Fabric.parse("roce-25").gbytesPerSecond).isEqualTo(3.125);
        assertThat(Fabric.forLink(true, 100)).contains(Fabric.IB_EDR);
        assertThat(Fabric.forLink(false, 25)).contains(Fabric.ROCE_25);
        assertThat(Fabric.forLink(false, 40)).contains(Fabric.ROCE_40);
        assertThat(Fabric.forLink(false, 1)).isEmpty();
    }

    @Test
    void withoutSpecOrGpusItIsAUsageError() {
        CliRun r = CliRun.of("plan", "allreduce", "--fabric", "ib-hdr");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--gpus is needed (or --spec FILE)");
        CliRun p = CliRun.of("plan", "power", "--gpu-watts", "700");
        assertThat(p.code()).isEqualTo(2);
        assertThat(p.err()).contains("--nodes and --gpus-per-node are needed (or --spec FILE)");
    }
}

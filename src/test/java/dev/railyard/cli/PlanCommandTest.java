package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.report.Json;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/** railyard plan end to end: text with formula and inputs, JSON for scripts, usage errors exit 2. */
class PlanCommandTest {

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void powerTextShowsFormulaInputsAndTheSeedsNumber() {
        CliRun r = run("plan", "power", "--nodes", "8", "--gpus-per-node", "8", "--gpu-watts", "700");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("plan power\nformula:\n  gpu_power = nodes x gpus_per_node x gpu_watts\n")
                .contains("inputs:\n  nodes ").containsPattern("\n  gpu_power +44.8 kW\n");
    }

    @Test
    void jsonCarriesEveryResult() throws Exception {
        CliRun r = run("plan", "allreduce", "--gpus", "64", "--size", "100M", "--fabric", "ib-hdr", "--format", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = Json.mapper().readTree(r.out());
        assertThat(json.get("calculator").asText()).isEqualTo("plan allreduce");
        assertThat(json.get("results").findValuesAsText("name")).contains("ring_time", "tree_time", "ring_busbw");
        assertThat(json.get("inputs").get(2).get("value").asDouble()).isEqualTo(104857600);
    }

    @Test
    void badInputsExitTwo() {
        CliRun fabric = run("plan", "allreduce", "--gpus", "8", "--fabric", "ethernet");
        assertThat(fabric.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(fabric.err()).contains("--fabric ethernet is not known").contains("ib-hdr");
        assertThat(run("plan", "power", "--nodes", "0", "--gpus-per-node", "8", "--gpu-watts", "700").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run("plan", "rails", "--nodes", "4", "--rails", "1", "--radix", "1").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run("plan", "storage", "--nodes", "8", "--format", "junit").code()).isEqualTo(ExitCodes.USAGE);
    }
}

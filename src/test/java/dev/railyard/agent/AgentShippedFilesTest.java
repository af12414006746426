package dev.railyard.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.nativelib.FakeNvmlLibrary;
import dev.railyard.platform.CommandRunner;
import dev.railyard.report.Json;
import dev.railyard.testing.RealTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The files shipped beside the agent: alert rules (real promtool), the Grafana dashboard and docs/metrics.md. */
class AgentShippedFilesTest {

    static final Path RULES = Path.of("deploy/prometheus/railyard-alerts.yml");
    static final Path RULE_TESTS = Path.of("deploy/prometheus/railyard-alerts.test.yml");
    static final Path DASHBOARD = Path.of("deploy/grafana/railyard-dashboard.json");
    static final Path METRICS_DOC = Path.of("docs/metrics.md");
    /** PromQL words that look like metric names. */
    static final Set<String> PROMQL = Set.of("by", "without", "on", "ignoring", "group_left", "group_right", "and", "or",
            "unless", "bool", "offset", "sum", "max", "min", "avg", "count", "rate", "increase", "irate", "delta", "time",
            "topk", "bottomk", "abs", "absent", "label_replace", "histogram_quantile", "clamp_min", "clamp_max");
    /** Prometheus' own series for the scrape. */
    static final Set<String> FROM_PROMETHEUS = Set.of("up");

    @Test
    void alertRulesPassPromtoolCheckAndTheirUnitTests() throws Exception {
        Path promtool = RealTool.require("promtool", "prometheus");
        assertThat(run(promtool.toString(), "check", "rules", RULES.toString())).contains("SUCCESS: 10 rules found");
        assertThat(run(promtool.toString(), "test", "rules", RULE_TESTS.toString())).contains("SUCCESS");
    }

    @Test
    void everyDashboardQueryNamesAMetricTheAgentServes(@TempDir Path tree, @TempDir Path lib) throws Throwable {
        Set<String> served = servedFamilies(tree, lib);
        JsonNode dashboard = Json.mapper().readTree(DASHBOARD.toFile());
        List<String> exprs = new ArrayList<>();
        dashboard.findValues("expr").forEach(e -> exprs.add(e.asText()));
        assertThat(exprs).hasSizeGreaterThanOrEqualTo(15);
        for (String expr : exprs) {
            Set<String> names = metricNames(expr);
            assertThat(names).as(expr).isNotEmpty();
            for (String n : names) {
                assertThat(served).as("dashboard query " + expr + " names " + n).contains(n);
            }
        }
    }

    @Test
    void everyServedMetricIsDocumented(@TempDir Path tree, @TempDir Path lib) throws Throwable {
        String doc = Files.readString(METRICS_DOC);
        for (String family : servedFamilies(tree, lib)) {
            if (FROM_PROMETHEUS.contains(family)) continue;
            assertThat(doc).as("docs/metrics.md lists " + family).contains("`" + family + "`");
        }
    }

    /** Metric names of a PromQL expression: identifiers outside label matchers, strings and ranges, not functions. */
    static Set<String> metricNames(String expr) {
        String s = expr.replaceAll("\"[^\"]*\"", "\"\"").replaceAll("\\{[^}]*}", " ").replaceAll("\\[[^]]*]", " ");
        s = s.replaceAll("\\b(by|without|on|ignoring)\\s*\\([^)]*\\)", " ");
        Set<String> out = new TreeSet<>();
        Matcher m = Pattern.compile("[A-Za-z_:][A-Za-z0-9_:]*(\\s*\\()?").matcher(s);
        while (m.find()) {
            String word = m.group().replaceAll("[\\s(]", "");
            if (m.group(1) != null || PROMQL.contains(word)) continue;
            out.add(word);
        }
        return out;
    }

    /**
     * Sample names as the text format writes them (node_exporter's and Railyard's counters with _total), from a
     * sample with GPUs, ports and Slurm.
     */
    static Set<String> servedFamilies(Path treeDir, Path libDir) throws Throwable {
        try (FakeNvmlLibrary nvml = FakeNvmlLibrary.build(libDir)) {
            AgentTree tree = new AgentTree(treeDir);
            CommandRunner noSlurm = (argv, timeout, dir, env) ->
                    new CommandRunner.Result(argv, 1, "", "slurm_load_node error: Unable to contact slurm controller", false, "");
            Agent agent = tree.agent(Optional.empty(), Optional.of(nvml.path()), Duration.ofMinutes(5),
                    Optional.of(new SlurmDrainPolicy(new SlurmControl(noSlurm, "scontrol"), "n1")));
            AgentState s = agent.tick();
            Set<String> names = new TreeSet<>(FROM_PROMETHEUS);
            names.addAll(AgentMetrics.families(s).sampleNames());
            tree.kernelLog.close();
            return names;
        }
    }

    private static String run(String... argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", argv) + ":\n" + out).isZero();
        return out;
    }
}

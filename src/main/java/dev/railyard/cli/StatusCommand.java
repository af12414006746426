package dev.railyard.cli;

import dev.railyard.agent.ClusterStatus;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import dev.railyard.report.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;

@Command(name = "status",
        mixinStandardHelpOptions = true,
        description = {"The whole cluster's health, from every node's agent, in one table.",
                "",
                "Asks each node's 'railyard agent' (at the node's address in the spec) for its health, all at once, and "
                        + "prints one row per node: health, the worst component and why, and how many GPUs and ports are "
                        + "not healthy. A node whose agent does not answer is listed as unreachable, never left out."},
        footer = {"", "Examples:",
                "  railyard status --spec cluster.yaml",
                "  railyard status --spec cluster.yaml --format json \\",
                "      | jq '.nodes[] | select(.health != \"HEALTHY\")'",
                "", "Exit codes: 0 no node unhealthy, unreachable or stale, 1 at least one, 2 usage or spec error."})
public final class StatusCommand implements Callable<Integer> {

    @Mixin
    SpecOption specOption;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + AgentCommand.DEFAULT_PORT,
            description = "The agents' HTTP port (default: the spec's agent.listen port, else ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "3s", converter = PositiveDurationConverter.class,
            description = "How long to wait for each agent (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Mixin
    FormatOption format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        ClusterSpec cluster = specOption.load().orElseThrow(() -> new RailyardException.Usage(
                "status needs the cluster spec naming the nodes", "railyard status --spec cluster.yaml"));
        int agentPort = spec.commandLine().getParseResult().hasMatchedOption("--port") ? port
                : cluster.agent().map(ClusterSpec.Agent::port).orElse(port);
        ClusterStatus.Report report = ClusterStatus.poll(cluster, agentPort, timeout);
        PrintWriter out = spec.commandLine().getOut();
        if (format.json()) {
            out.println(Json.write(report));
        } else {
            out.printf("%-16s %-10s %-9s %-9s %-8s %s%n", "NODE", "HEALTH", "GPUS", "PORTS", "SAMPLED", "WORST");
            for (ClusterStatus.NodeRow r : report.nodes()) {
                if (r.unreachable().isPresent()) {
                    out.printf("%-16s %-10s %-9s %-9s %-8s %s%n", r.node(), "UNREACHABLE", "-", "-", "-", r.unreachable().get());
                    continue;
                }
                String age = r.sampleAgeMs().map(ms -> ms < 10_000 ? ms / 1000.0 + "s" : ms / 1000 + "s").orElse("?");
                out.printf("%-16s %-10s %-9s %-9s %-8s %s%n", r.node(), r.stale() ? "STALE" : r.health().orElseThrow(),
                        (r.gpus() - r.gpusNotHealthy()) + "/" + r.gpus(), (r.ports() - r.portsNotHealthy()) + "/" + r.ports(),
                        age + " ago", r.stale() ? "sampling stalled; last known " + r.health().orElseThrow()
                                + (r.worst().isEmpty() ? "" : ", " + r.worst()) : r.worst());
            }
            out.printf("%d nodes: %d unhealthy, %d unreachable, %d stale%n", report.nodes().size(), report.unhealthy(),
                    report.unreachable(), report.stale());
        }
        out.flush();
        // a stale node's health is no promise of its health now
        return report.unhealthy() + report.unreachable() + report.stale() > 0 ? ExitCodes.FAIL_FINDING : ExitCodes.OK;
    }
}

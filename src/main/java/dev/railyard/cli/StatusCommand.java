package dev.railyard.cli;

import dev.railyard.agent.ClusterStatus;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import dev.railyard.report.Json;
import dev.railyard.spec.SpecReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
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
                "  railyard status --spec cluster.yaml --format json | jq '.nodes[] | select(.health != \"HEALTHY\")'",
                "", "Exit codes: 0 no node unhealthy or unreachable, 1 at least one, 2 usage or spec error."})
public final class StatusCommand implements Callable<Integer> {

    @Option(names = "--spec", paramLabel = "FILE", required = true, description = "The cluster spec naming the nodes.")
    Path specFile;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + AgentCommand.DEFAULT_PORT,
            description = "The agents' HTTP port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "3s", converter = DurationConverter.class,
            description = "How long to wait for each agent (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "Output format (default: ${DEFAULT-VALUE}).")
    String format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (!Files.isRegularFile(specFile)) {
            throw new RailyardException.Usage("--spec " + specFile + " is not a file", "write one with: railyard init > cluster.yaml");
        }
        ClusterSpec cluster = new SpecReader().read(specFile);
        ClusterStatus.Report report = ClusterStatus.poll(cluster, port, timeout);
        PrintWriter out = spec.commandLine().getOut();
        if (format.equals("json")) {
            out.println(Json.write(report));
        } else {
            out.printf("%-16s %-10s %-9s %-9s %s%n", "NODE", "HEALTH", "GPUS", "PORTS", "WORST");
            for (ClusterStatus.NodeRow r : report.nodes()) {
                if (r.unreachable().isPresent()) {
                    out.printf("%-16s %-10s %-9s %-9s %s%n", r.node(), "UNREACHABLE", "-", "-", r.unreachable().get());
                    continue;
                }
                out.printf("%-16s %-10s %-9s %-9s %s%n", r.node(), r.health().orElseThrow(),
                        (r.gpus() - r.gpusNotHealthy()) + "/" + r.gpus(), (r.ports() - r.portsNotHealthy()) + "/" + r.ports(),
                        r.worst());
            }
            out.printf("%d nodes: %d unhealthy, %d unreachable%n", report.nodes().size(), report.unhealthy(), report.unreachable());
        }
        out.flush();
        return report.unhealthy() + report.unreachable() > 0 ? ExitCodes.FAIL_FINDING : ExitCodes.OK;
    }
}

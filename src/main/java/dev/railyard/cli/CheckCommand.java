package dev.railyard.cli;

import dev.railyard.check.CheckCoverage;
import dev.railyard.check.CheckInput;
import dev.railyard.check.CheckRunner;
import dev.railyard.check.SpecLoader;
import dev.railyard.spec.SpecHandoff;
import dev.railyard.spec.SpecReader;
import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.NotJudged;
import dev.railyard.model.RailyardException;
import dev.railyard.platform.Clock;
import dev.railyard.report.FindingsJson;
import dev.railyard.report.FindingsText;
import dev.railyard.report.JUnitReport;
import dev.railyard.report.TextStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

@Command(name = "check",
        mixinStandardHelpOptions = true,
        description = {
                "Check this node and print each problem with the command that fixes it.",
                "",
                "Preflight checks of this node: host tuning, kernel modules, GPUs (ECC, temperature, throttling, PCIe, "
                        + "NVLink, Xid errors), RDMA ports (state, rate, subnet manager, RoCE GIDs), fabric netdevs (MTU, "
                        + "addresses, bonds), link flaps and GPU-NIC topology. Each finding says what was seen, what was "
                        + "expected and the command that fixes it. UNKNOWN means a reading was missing: it is never a PASS.",
                "",
                "With --spec, ports, netdevs, rates, MTUs and addresses are judged against the cluster spec; "
                        + "without one, only what can be judged from the node itself."},
        footer = {"", "Exit codes: 0 no FAIL, 1 at least one FAIL, 2 usage or spec error, 3 a prerequisite missing, 4 a bug.",
                "JUnit: FAIL is a <failure>, UNKNOWN is <skipped>, WARN/INFO/PASS pass with their text in <system-out>.",
                "", "Examples:",
                "  railyard check",
                "  railyard check --spec cluster.yaml --only rdma.",
                "  railyard check --root ./node-capture --format junit > railyard-check.xml"})
public final class CheckCommand implements Callable<Integer> {

    @Mixin
    RootOption root;

    @Mixin
    SpecOption specOption = new SpecOption();

    @Option(names = "--spec-base64", paramLabel = "DATA",
            description = "The spec's text gzipped and base64url-encoded, instead of --spec FILE: how validate hands "
                    + "each node its spec without copying a file.")
    String specBase64;

    @Option(names = "--node", paramLabel = "NAME",
            description = "This node's name in the spec (default: the node's hostname).")
    String node;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json|junit",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Option(names = "--only", paramLabel = "ID-PREFIX", split = ",",
            description = "Only findings whose ID starts with this (repeatable or comma-separated: rdma.,gpu.xid).")
    List<String> only = List.of();

    @Option(names = "--slurm-healthcheck",
            description = "Run as Slurm's HealthCheckProgram, Prolog or Epilog (like NHC): a FAIL drains this node with a "
                    + "reason starting 'railyard:'; a clean run resumes it if Railyard drained it. An admin's drain is left alone. "
                    + "As NHC, text output is one line when something was done and nothing when the node is healthy.")
    boolean slurmHealthcheck;

    @Option(names = "--slurm-node", paramLabel = "NAME",
            description = "This node's Slurm name (default: $SLURMD_NODENAME, else --node, else the hostname).")
    String slurmNode;

    @Option(names = "--healthcheck-timeout", paramLabel = "DURATION", defaultValue = "50s", converter = PositiveDurationConverter.class,
            description = "With --slurm-healthcheck: drain and exit 1 if the check takes longer (default: ${DEFAULT-VALUE}; "
                    + "Slurm kills a HealthCheckProgram after 60 s).")
    java.time.Duration healthcheckTimeout;

    @Spec
    CommandSpec spec;

    private final SpecLoader specLoader;
    /** The terminal's style unless a test sets one. */
    TextStyle style;

    public CheckCommand() {
        this(file -> new SpecReader().read(file));
    }

    CheckCommand(SpecLoader specLoader) {
        this.specLoader = specLoader;
    }

    @Override
    public Integer call() throws Exception {
        CheckRunner runner = CheckRunner.nodeChecks();
        List<String> unknown = only.stream().filter(p -> !runner.selectsAny(p)).toList();
        if (!unknown.isEmpty()) {
            throw new RailyardException.Usage("--only " + String.join(",", unknown) + " matches no check",
                    "use a prefix of one of: " + String.join(", ", runner.idPrefixes()));
        }
        Optional<ClusterSpec> cluster = specOption.load(specLoader);
        if (cluster.isEmpty() && specBase64 != null) {
            cluster = Optional.of(new SpecReader().read("the spec from validate", SpecHandoff.decode(specBase64)));
        }
        Optional<ClusterSpec> judged = cluster;
        java.util.concurrent.Callable<Integer> run = () -> report(
                new InventoryCollector(GpuCollector.forRoot(root.hostRoot()), Clock.system()).collect(root.hostRoot()),
                judged);
        if (!slurmHealthcheck) return run.call();
        return SlurmHealthcheckRun.within(run, healthcheckTimeout, this::healthcheck, spec.commandLine().getOut());
    }

    private dev.railyard.agent.SlurmHealthcheck healthcheck() {
        String name = slurmNode != null ? slurmNode
                : System.getenv("SLURMD_NODENAME") != null ? System.getenv("SLURMD_NODENAME")
                : node != null ? node : root.hostRoot().read("proc/sys/kernel/hostname").orElse("localhost");
        return new dev.railyard.agent.SlurmHealthcheck(
                new dev.railyard.agent.SlurmControl(dev.railyard.platform.CommandRunner.system(), "scontrol"), name);
    }

    /** Judges an inventory and prints the findings; split from {@link #call()} so tests can hand in an inventory. */
    int report(NodeInventory inventory, Optional<ClusterSpec> cluster) {
        // a hostname with its domain finds the node of its short name (init writes that one)
        String name = node != null ? node : cluster.flatMap(c -> c.nodeForHost(inventory.hostname()))
                .map(ClusterSpec.Node::name).orElse(inventory.hostname());
        if (node != null && cluster.isPresent() && cluster.get().node(node).isEmpty()) {
            throw new RailyardException.Usage("node " + node + " is not in the spec " + cluster.get().source(),
                    "use one of: " + cluster.get().nodes().stream().map(ClusterSpec.Node::name).toList());
        }
        if (node == null && cluster.isPresent() && cluster.get().node(name).isEmpty()) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("railyard: note: this node's hostname '" + name + "' is not a node of " + cluster.get().source()
                    + ", so its network bindings are not checked; pass --node NAME (one of: "
                    + String.join(", ", cluster.get().nodes().stream().map(ClusterSpec.Node::name).toList()) + ")");
            err.flush();
        }
        CheckInput input = new CheckInput(inventory, cluster, name);
        List<Finding> findings = CheckRunner.only(CheckRunner.nodeChecks().run(input), only);
        List<NotJudged> notJudged = CheckCoverage.of(input);
        PrintWriter out = spec.commandLine().getOut();
        if (slurmHealthcheck && format == OutputFormat.TEXT) {
            // as NHC: Slurm logs what a HealthCheckProgram prints, so a healthy node says nothing and a sick one
            // says in one line what was done about it
            String done = healthcheck().act(findings);
            if (ExitCodes.of(findings) != ExitCodes.OK || !done.endsWith("nothing to do")) out.println(done);
            out.flush();
            return ExitCodes.of(findings);
        }
        out.print(switch (format) {
            case TEXT -> FindingsText.render(name, findings, notJudged, style != null ? style : Terminal.style());
            case JSON -> FindingsJson.render(name, findings, notJudged);
            case JUNIT -> JUnitReport.render(name, findings);
        });
        if (slurmHealthcheck) out.println(healthcheck().act(findings));
        out.flush();
        return ExitCodes.of(findings);
    }
}

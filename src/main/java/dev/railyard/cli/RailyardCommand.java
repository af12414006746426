package dev.railyard.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "railyard",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
                "Bring up, prove and watch bare-metal GPU clusters with RDMA fabrics.",
                "",
                "Start with 'railyard inventory' to see what this node has, 'railyard check' to see what is "
                        + "wrong with it and the command that fixes each problem, and 'railyard init > cluster.yaml' to "
                        + "describe your cluster so checks can compare against what you expect."},
        footer = {"", "Exit codes: 0 ok, 1 a FAIL finding, 2 usage or spec error, 3 a prerequisite missing or failing, "
                + "4 a bug in Railyard (docs/exit-codes.md)."})
public final class RailyardCommand implements Runnable {

    @Option(names = "--debug", description = "Show stack traces for errors.", scope = picocli.CommandLine.ScopeType.INHERIT)
    boolean debug;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}

package dev.railyard.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "bench",
        mixinStandardHelpOptions = true,
        description = {"Measure what this node and its links deliver, natively or through the usual tools."})
// the subcommands are added by Main (tcp, rdma, nccl, gpu, storage), only the one invoked when the arguments name one
public final class BenchCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}

package dev.railyard.cli;

import dev.railyard.platform.NodeLock;
import picocli.CommandLine.Option;

import java.util.Optional;

/**
 * The benchmarks' share of the node's lock ({@link NodeLock}): run by hand a benchmark holds it alone; validate
 * adds {@code --in-run RUN} to its benchmark steps, which then share it with the other steps of that run only.
 */
final class NodeLockOption {

    @Option(names = "--in-run", hidden = true, paramLabel = "RUN",
            description = "The validate run this benchmark is a step of (set by validate).")
    String run;

    NodeLock acquire(String what) {
        return NodeLock.acquire(what, Optional.ofNullable(run).filter(r -> !r.isBlank()));
    }
}

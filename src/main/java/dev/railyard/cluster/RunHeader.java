package dev.railyard.cluster;

import java.time.Instant;
import java.util.List;

/** What identifies a validate run in the history: its id, the cluster, how it was launched, the nodes, when. */
public record RunHeader(String runId, String cluster, String launcher, List<String> nodes, List<String> commandLine,
                        Instant startedAt) {

    public RunHeader {
        nodes = List.copyOf(nodes);
        commandLine = List.copyOf(commandLine);
    }
}

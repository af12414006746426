package dev.railyard.model;

import java.util.List;

/**
 * The likely cause of bad pair results, with the evidence (the pairs and their numbers against expect) and what to
 * do about it. {@code nodes} is the node for NODE, the two ends for LINK, empty for RAIL.
 */
public record Culprit(CulpritKind kind, String network, List<String> nodes, Severity severity, String evidence,
                      String remediation) {

    public Culprit {
        nodes = List.copyOf(nodes);
    }

    /** "node gpuserver2 on rail0", "link gpuserver1<->gpuserver2 on rail0", "rail rail0". */
    public String subject() {
        return switch (kind) {
            case NODE -> "node " + nodes.getFirst() + " on " + network;
            case LINK -> "link " + String.join("<->", nodes) + " on " + network;
            case RAIL -> "rail " + network;
        };
    }
}

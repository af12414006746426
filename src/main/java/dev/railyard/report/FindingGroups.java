package dev.railyard.report;

import dev.railyard.model.Finding;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Node findings that say the same thing on several nodes, as one finding: "8 nodes (node1, node2, … node8)
 * net.core.rmem_max", so a setting missing cluster-wide reads once instead of once per node. Findings are the same
 * when everything but the node name at the head of their subject is: check, severity, the rest of the subject,
 * observed, expected and fix (a subject without the node's name, "eth0", counts whole). A finding seen on one node
 * keeps its own subject.
 */
public final class FindingGroups {

    /** Names listed in a grouped subject before "…" and the last one. */
    private static final int NAMED = 3;

    private FindingGroups() {
    }

    private record Key(String id, Severity severity, String rest, String observed, String expected, String remediation) {}

    /** The run's findings with those of its nodes grouped: grouped node findings first, then cluster, pairs, bench. */
    public static List<Finding> all(ValidationReport r) {
        return Stream.of(nodes(r.nodes()), r.clusterFindings(), r.pairFindings(), r.benchFindings())
                .flatMap(List::stream).toList();
    }

    public static List<Finding> nodes(List<NodeOutcome> nodes) {
        Map<Key, List<String>> groups = new LinkedHashMap<>();
        Map<Key, String> firstSubject = new LinkedHashMap<>();
        for (NodeOutcome n : nodes) {
            for (Finding f : n.findings()) {
                String rest = f.subject().equals(n.node()) ? ""
                        : f.subject().startsWith(n.node() + " ") ? f.subject().substring(n.node().length() + 1)
                        : f.subject();
                Key k = new Key(f.id(), f.severity(), rest, f.observed(), f.expected(), f.remediation());
                firstSubject.putIfAbsent(k, f.subject());
                List<String> on = groups.computeIfAbsent(k, x -> new ArrayList<>());
                if (!on.contains(n.node())) on.add(n.node());
            }
        }
        List<Finding> out = new ArrayList<>();
        groups.forEach((k, on) -> {
            String head = on.size() + " nodes (" + names(on) + ")";
            String subject = on.size() == 1 ? firstSubject.get(k) : k.rest().isEmpty() ? head : head + " " + k.rest();
            out.add(new Finding(k.id(), k.severity(), subject, k.observed(), k.expected(), k.remediation()));
        });
        return out;
    }

    static String names(List<String> on) {
        if (on.size() <= NAMED + 1) return String.join(", ", on);
        return String.join(", ", on.subList(0, NAMED)) + ", … " + on.getLast();
    }
}

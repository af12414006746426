package dev.railyard.report;

import dev.railyard.model.Finding;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class FindingGroupsTest {

    private static Finding rmem(String node, String observed) {
        return Finding.of("host.net.buffers", Severity.WARN, node + " net.core.rmem_max", observed, ">= 268435456",
                "sysctl -w net.core.rmem_max=268435456");
    }

    private static NodeOutcome node(String name, Finding... f) {
        return new NodeOutcome(name, NodeStatus.COMPLETED, "", List.of(f), Optional.empty());
    }

    @Test
    void theSameFindingOnEightNodesIsOneLine() {
        List<NodeOutcome> nodes = new ArrayList<>();
        for (int i = 1; i <= 8; i++) nodes.add(node("node" + i, rmem("node" + i, "4194304")));
        assertThat(FindingGroups.nodes(nodes)).containsExactly(Finding.of("host.net.buffers", Severity.WARN,
                "8 nodes (node1, node2, node3, … node8) net.core.rmem_max", "4194304", ">= 268435456",
                "sysctl -w net.core.rmem_max=268435456"));
    }

    @Test
    void aDifferentObservationOrASingleNodeKeepsItsOwnLine() {
        List<Finding> out = FindingGroups.nodes(List.of(node("a", rmem("a", "4194304")), node("b", rmem("b", "4194304")),
                node("c", rmem("c", "212992"), Finding.pass("net.carrier", "eth0", "2 carrier changes", "<= 10"))));
        assertThat(out).extracting(Finding::subject)
                .containsExactly("2 nodes (a, b) net.core.rmem_max", "c net.core.rmem_max", "eth0");
    }
}

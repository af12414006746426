package dev.railyard.agent;

import dev.railyard.collect.SourceReads;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a source that gave no answer in time does to a sample: the findings about the components it reads rest on
 * its last readings, so they become UNKNOWN with the reason (a stale PASS is no promise). Findings about the other
 * components stand.
 */
final class StuckSources {

    private StuckSources() {
    }

    /** The component kind each source's readings are about; the kernel log's Xids are about GPUs. */
    static ComponentKind kindOf(SourceReads.Source source) {
        return switch (source) {
            case PCI, GPU, KERNEL_LOG -> ComponentKind.GPU;
            case INFINIBAND -> ComponentKind.PORT;
            case NET -> ComponentKind.NETDEV;
            case HOST, HOSTNAME -> ComponentKind.NODE;
        };
    }

    static List<Finding> judge(List<Finding> findings, List<SourceReads.Stuck> stuck, String node) {
        Map<ComponentKind, String> why = new EnumMap<>(ComponentKind.class);
        for (SourceReads.Stuck s : stuck) why.merge(kindOf(s.source()), s.why(), (a, b) -> a + "; " + b);
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            String reason = why.get(ComponentKind.ofSubject(f.subject(), node));
            out.add(reason == null ? f : new Finding(f.id(), Severity.UNKNOWN, f.subject(), "not read: " + reason,
                    f.expected(), ""));
        }
        return out;
    }
}

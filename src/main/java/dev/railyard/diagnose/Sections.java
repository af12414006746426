package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A paste that holds several tools' outputs (ibportstate then ibstat, a fio run then the kernel's I/O errors): each
 * tool that claims the paste reads it, and the report keeps one section per tool, each verdict's subject naming its
 * tool. Tools that print look-alike lines (iperf2 and iperf3, fio text and JSON) never make two sections of one
 * output, and a second reading counts only when it has evidence on lines the first did not judge.
 */
final class Sections {

    /** The tools a paste can hold side by side with another. */
    private static final Set<ToolKind> SECTIONABLE = EnumSet.of(ToolKind.IBSTAT, ToolKind.IBV_DEVINFO,
            ToolKind.IBSTATUS, ToolKind.IBPORTSTATE, ToolKind.IBLINKINFO, ToolKind.PERFQUERY, ToolKind.RDMA_LINK,
            ToolKind.RDMA_STATISTIC, ToolKind.IBDIAGNET,
            ToolKind.MLXLINK, ToolKind.NVIDIA_SMI_TOPO, ToolKind.NVIDIA_SMI_Q, ToolKind.DCGMI_DIAG, ToolKind.LSPCI,
            ToolKind.ETHTOOL_STATS, ToolKind.OSU, ToolKind.UCX_PERFTEST, ToolKind.FIO_TEXT, ToolKind.KERNEL_LOG);
    private static final List<Set<ToolKind>> FAMILIES = List.of(
            EnumSet.of(ToolKind.IPERF2, ToolKind.IPERF3_TEXT, ToolKind.IPERF3_JSON),
            EnumSet.of(ToolKind.FIO_TEXT, ToolKind.FIO_JSON));

    private Sections() {
    }

    record Section(ToolKind tool, ToolReading reading) {}

    /** The other tools' readings that make this paste a mixed one; empty when it is one tool's. */
    static List<Section> others(List<Recogniser> recognisers, Recogniser primary, ToolReading first,
                                TextLines text, Set<String> present, DiagnoseTargets targets) {
        List<Section> out = new ArrayList<>();
        if (!SECTIONABLE.contains(primary.tool())) return out;
        Set<Integer> judged = new HashSet<>(lines(first));
        for (Recogniser r : recognisers) {
            if (r == primary || !SECTIONABLE.contains(r.tool()) || sameFamily(primary.tool(), r.tool())) continue;
            if (out.stream().anyMatch(s -> s.tool() == r.tool())) continue;
            if (!r.mayRecognise(present) || !r.recognises(text)) continue;
            ToolReading reading;
            try {
                reading = r.read(text, targets);
            } catch (RuntimeException e) {
                continue; // a tool that cannot read the paste is not a section of it
            }
            Set<Integer> own = lines(reading);
            own.removeAll(judged);
            boolean kernelFault = r.tool() == ToolKind.KERNEL_LOG
                    && reading.diagnoses().stream().anyMatch(d -> d.severity().atLeast(Severity.WARN));
            if (own.isEmpty() || r.tool() == ToolKind.KERNEL_LOG && !kernelFault) continue;
            out.add(new Section(r.tool(), reading));
            judged.addAll(own);
        }
        return out;
    }

    /** Each verdict's subject prefixed with its tool, so the report reads as one section per tool. */
    static List<Diagnosis> labelled(ToolKind tool, List<Diagnosis> in) {
        List<Diagnosis> out = new ArrayList<>();
        for (Diagnosis d : in) {
            out.add(Diagnosis.of(d.finding().id(), d.severity(), tool.label() + ": " + d.subject(), d.cause(),
                    d.fix(), d.lineNumber(), d.line(), d.source()));
        }
        return out;
    }

    private static boolean sameFamily(ToolKind a, ToolKind b) {
        return FAMILIES.stream().anyMatch(f -> f.contains(a) && f.contains(b));
    }

    private static Set<Integer> lines(ToolReading r) {
        Set<Integer> out = new HashSet<>();
        for (Diagnosis d : r.diagnoses()) if (d.lineNumber() > 0) out.add(d.lineNumber());
        return out;
    }
}

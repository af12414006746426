package dev.railyard.report;

import dev.railyard.model.PcieTopology;
import dev.railyard.model.PcieTopology.Endpoint;
import dev.railyard.model.PcieTopology.Kind;
import dev.railyard.model.PcieTopology.Pair;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** GPU rows against NIC columns with nvidia-smi topo -m's classes, then each endpoint's NUMA node and link. */
final class TopologySection {

    private static final List<String> LEGEND = List.of(
            "PIX  = at most a single PCIe bridge (same PCIe switch)",
            "PXB  = multiple PCIe bridges, without the host bridge",
            "PHB  = a PCIe host bridge (typically the CPU)",
            "NODE = the interconnect between PCIe host bridges within a NUMA node",
            "SYS  = the SMP interconnect between NUMA nodes (e.g. QPI/UPI)",
            "?    = a device's place in the PCI tree is unknown");

    private TopologySection() {
    }

    static void appendTo(StringBuilder out, PcieTopology t) {
        List<Endpoint> gpus = t.endpoints().stream().filter(e -> e.kind() == Kind.GPU).toList();
        List<Endpoint> nics = t.endpoints().stream().filter(e -> e.kind() == Kind.NIC).toList();
        out.append("PCIe (").append(gpus.size()).append(" GPUs, ").append(nics.size()).append(" NICs)\n");
        if (gpus.isEmpty() && nics.isEmpty()) {
            out.append("  none found (no GPU or NIC functions on PCI)\n");
            return;
        }
        if (!gpus.isEmpty() && !nics.isEmpty()) matrix(out, t, gpus, nics);
        else out.append("  no GPU-NIC pairs (").append(gpus.isEmpty() ? "no GPUs" : "no NICs").append(")\n");
        TextTable table = new TextTable("", "NAME", "PCI", "NUMA", "LINK");
        for (int i = 0; i < gpus.size(); i++) endpoint(table, gpus.get(i).name(), gpus.get(i));
        for (int i = 0; i < nics.size(); i++) endpoint(table, "NIC" + i, nics.get(i));
        table.appendTo(out, "  ");
    }

    private static void matrix(StringBuilder out, PcieTopology t, List<Endpoint> gpus, List<Endpoint> nics) {
        Map<String, PcieTopology.Affinity> cells = new HashMap<>();
        for (Pair p : t.pairs()) cells.put(p.gpu() + "/" + p.nic(), p.affinity());
        String[] header = new String[nics.size() + 1];
        header[0] = "";
        for (int i = 0; i < nics.size(); i++) header[i + 1] = "NIC" + i;
        TextTable m = new TextTable(header);
        for (Endpoint g : gpus) {
            String[] row = new String[nics.size() + 1];
            row[0] = g.name();
            for (int i = 0; i < nics.size(); i++) {
                PcieTopology.Affinity a = cells.get(g.name() + "/" + nics.get(i).name());
                row[i + 1] = a == null ? "?" : a.name();
            }
            m.row(row);
        }
        m.appendTo(out, "  ");
        for (String l : LEGEND) out.append("    ").append(l).append('\n');
    }

    /** A NIC without an RDMA device or netdev is named by its address, which the PCI column already shows. */
    private static void endpoint(TextTable table, String label, Endpoint e) {
        table.row(label, label.equals(e.name()) || e.name().equals(e.pciAddress()) ? "" : e.name(), e.pciAddress(), ReadingText.of(e.numaNode()),
                ReadingText.of(e.link(), ReadingText::link));
    }
}

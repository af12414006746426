package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nvidia-smi topo -m: the GPU rows of the matrix. Says how the GPUs reach each other (NVLink NV#, or PCIe through a
 * switch, a host bridge or the CPU interconnect) and, where the matrix has NIC columns, the closest NIC of each GPU.
 * A topology is a fact, not a fault: PASS, with a WARN only where a GPU's nearest NIC is across the CPU interconnect.
 */
public record NvidiaSmiTopoRecogniser() implements Recogniser {

    private static final Pattern ROW = Pattern.compile("^\\s*GPU(\\d{1,3})\\s+(.*)$");
    private static final Pattern CELL = Pattern.compile("X|NV\\d{1,3}|SYS|NODE|PHB|PXB|PIX|SOC");
    private static final Pattern NV = Pattern.compile("NV(\\d{1,3})");

    @Override
    public ToolKind tool() {
        return ToolKind.NVIDIA_SMI_TOPO;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("GPU0");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> {
            Matcher m = ROW.matcher(l);
            return m.find() && cells(m.group(2)).size() >= 2 && cells(m.group(2)).contains("X");
        });
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<String> header = List.of();
        Map<Integer, List<String>> rows = new TreeMap<>();
        int firstRow = 0;
        for (int i = 0; i < text.lines().size(); i++) {
            String l = text.lines().get(i);
            if (l.strip().startsWith("GPU0") && l.contains("GPU1") && !ROW.matcher(l).find()) header = split(l);
            else if (header.isEmpty() && l.matches("^\\s+GPU0\\s+.*")) header = split(l);
            Matcher m = ROW.matcher(l);
            if (m.find() && cells(m.group(2)).contains("X")) {
                rows.put(Integer.parseInt(m.group(1)), cells(m.group(2)));
                if (firstRow == 0) firstRow = i + 1;
            }
        }
        int gpus = (int) header.stream().filter(h -> h.matches("GPU\\d+")).count();
        if (gpus == 0) gpus = rows.size();
        int nvlinks = 0;
        int sysPairs = 0;
        for (List<String> r : rows.values()) {
            for (int c = 0; c < Math.min(gpus, r.size()); c++) {
                Matcher nv = NV.matcher(r.get(c));
                if (nv.matches()) nvlinks = Math.max(nvlinks, Integer.parseInt(nv.group(1)));
                if (r.get(c).equals("SYS")) sysPairs++;
            }
        }
        List<Measurement> numbers = new ArrayList<>(List.of(new Measurement("GPUs", gpus, "GPUs")));
        if (nvlinks > 0) numbers.add(new Measurement("NVLinks per GPU pair", nvlinks, "links"));
        String how = nvlinks > 0 ? "GPUs reach each other over " + nvlinks + " bonded NVLinks"
                : "no NVLink: GPU pairs talk over PCIe" + (sysPairs > 0 ? ", " + sysPairs / 2
                + " pairs across the CPU interconnect (SYS)" : "");
        List<Diagnosis> out = new ArrayList<>();
        out.add(Diagnosis.of(CheckId.TOPO_GPU_NIC_AFFINITY.id(), Severity.PASS, "topology", gpus + " GPUs; " + how, "",
                firstRow, firstRow > 0 ? text.line(firstRow) : "", "nvidia-smi topo -m"));
        int nics = header.size() - gpus;
        if (nics > 0) {
            for (Map.Entry<Integer, List<String>> e : rows.entrySet()) {
                List<String> r = e.getValue();
                if (r.size() < gpus + nics) continue;
                List<String> nicCells = r.subList(gpus, gpus + nics);
                if (!nicCells.isEmpty() && nicCells.stream().allMatch("SYS"::equals)) {
                    out.add(Diagnosis.of(CheckId.TOPO_GPU_NIC_AFFINITY.id(), Severity.WARN, "GPU" + e.getKey(),
                            "every NIC is across the CPU interconnect (SYS) from GPU" + e.getKey()
                                    + ": GPUDirect RDMA traffic of this GPU crosses sockets",
                            "nvidia-smi topo -m   # pin the rank of GPU" + e.getKey() + " to a NIC on its own socket",
                            0, "", "nvidia-smi topo -m"));
                }
            }
        }
        return new ToolReading(out, Parsed.none().withNumbers(numbers));
    }

    private static List<String> split(String l) {
        List<String> out = new ArrayList<>();
        for (String t : l.strip().split("\\s+")) {
            if (t.equals("CPU") || t.equals("NUMA") || t.equals("GPU") && out.size() > 0) break;
            out.add(t);
        }
        return out;
    }

    private static List<String> cells(String rest) {
        List<String> out = new ArrayList<>();
        for (String t : rest.strip().split("\\s+")) {
            if (!CELL.matcher(t).matches()) break;
            out.add(t);
        }
        return out;
    }
}

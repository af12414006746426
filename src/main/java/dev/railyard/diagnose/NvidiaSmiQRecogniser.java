package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.check.Fix;
import dev.railyard.check.rules.GpuEccRule;
import dev.railyard.check.rules.GpuPcieLinkRule;
import dev.railyard.check.rules.Verdict;
import dev.railyard.collect.PciAddress;
import dev.railyard.model.CheckId;
import dev.railyard.model.PcieLink;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nvidia-smi -q as text: the GPU count, uncorrectable ECC errors and row-remap failures (gpu.ecc.uncorrected), pages
 * waiting for retirement, and a PCIe link below its maximum generation (an idle GPU drops its link speed to save
 * power, so that is INFO unless the width is also short).
 */
public record NvidiaSmiQRecogniser() implements Recogniser {

    /** "GPU 00000000:3B:00.0": the section of one GPU. */
    private static final Pattern GPU_HEADER = Pattern.compile("^GPU ([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\\.[0-7])$");
    private static final Pattern KV = Pattern.compile("^(\\s*)([A-Za-z][\\w /()\\-]*?)\\s+:\\s*(.*?)\\s*$");

    @Override
    public ToolKind tool() {
        return ToolKind.NVIDIA_SMI_Q;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("NVSMI LOG", "Product Name", "GPU Part Number", "PCIe Generation", "Clocks");
    }

    @Override
    public boolean recognises(TextLines text) {
        int fields = 0;
        for (String l : text.lines()) {
            if (l.contains("==NVSMI LOG==") || l.startsWith("Attached GPUs")) return true;
            if (l.contains("Product Name") || l.contains("GPU Part Number") || l.contains("VBIOS Version")
                    || l.contains("PCIe Generation") || l.contains("Inforom Version")) fields++;
        }
        return fields >= 2 || sections(text) >= 2;
    }

    /** nvidia-smi -q's section titles, each alone on its line above its indented "Name   : value" lines. */
    private static final Set<String> SECTIONS = Set.of("Clocks", "Max Clocks", "Applications Clocks",
            "Default Applications Clocks", "Max Customer Boost Clocks", "Clocks Throttle Reasons", "Clocks Event Reasons",
            "FB Memory Usage", "BAR1 Memory Usage", "ECC Errors", "Retired Pages", "Remapped Rows", "Temperature",
            "Power Readings", "GPU Power Readings", "Utilization", "Voltage");

    /** How many of those titles head a block of nvidia-smi's aligned lines (a paste of a few sections alone). */
    private static int sections(TextLines text) {
        int found = 0;
        List<String> lines = text.lines();
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (SECTIONS.contains(lines.get(i).strip()) && ALIGNED.matcher(lines.get(i + 1)).find()) found++;
        }
        return found;
    }

    private static final Pattern ALIGNED = Pattern.compile("^\\s+\\S[\\w ./()-]*?\\s{2,}: \\S");

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<Measurement> numbers = new ArrayList<>();
        List<Diagnosis> out = new ArrayList<>();
        String section = "";
        Optional<String> gpu = Optional.empty();
        int maxGen = 0, curGen = 0, maxWidth = 0, genLine = 0;
        List<String> lines = text.lines();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = KV.matcher(lines.get(i));
            String l = lines.get(i).strip();
            if (!m.find()) {
                Matcher header = GPU_HEADER.matcher(l);
                if (header.matches()) {
                    generationOnly(curGen, maxGen, genLine, lines, gpu, out);
                    genLine = 0;
                    gpu = Optional.of(PciAddress.normalize(header.group(1)));
                }
                else if (!l.isEmpty() && !l.contains(":")) section = l;
                continue;
            }
            String key = m.group(2).strip();
            String value = m.group(3);
            if (value.isEmpty()) {
                section = key;
                continue;
            }
            int n = i + 1;
            switch (key) {
                case "Attached GPUs" -> number(value).ifPresent(v -> numbers.add(new Measurement("GPUs", v, "GPUs")));
                case "Max" -> {
                    if (section.contains("PCIe Generation")) maxGen = (int) number(value).orElse(0);
                    if (section.contains("Link Width")) maxWidth = (int) number(value).orElse(0);
                }
                case "Current" -> {
                    if (section.contains("PCIe Generation")) {
                        curGen = (int) number(value).orElse(0);
                        numbers.add(new Measurement("PCIe generation", curGen, "gen"));
                        genLine = n;
                    }
                    if (section.contains("Link Width") && curGen > 0 && maxGen > 0) {
                        // the rule's verdict on the link as NVML would read it, on the width's line
                        Verdict v = GpuPcieLinkRule.link(Reading.of(new PcieLink(curGen, maxGen,
                                (int) number(value).orElse(0), maxWidth)), gpu);
                        if (!v.passed()) out.add(judged(v, gpu, n, l));
                        genLine = 0;
                    }
                }
                case "Double Bit ECC", "Uncorrectable", "Uncorrectable Error" -> {
                    if (number(value).orElse(0) > 0) {
                        out.add(judged(GpuEccRule.uncorrectable(key + " " + value), gpu, n, l));
                    }
                }
                case "Remapping Failure Occurred" -> {
                    if (value.equalsIgnoreCase("Yes")) out.add(judged(GpuEccRule.remapFailed(key + " " + value, gpu), gpu, n, l));
                }
                case "Pending Page Blacklist", "Pending Page Retirement", "Pending" -> {
                    if (value.equalsIgnoreCase("Yes")) out.add(judged(GpuEccRule.pending(key + " " + value, gpu), gpu, n, l));
                }
                default -> { }
            }
        }
        generationOnly(curGen, maxGen, genLine, lines, gpu, out);
        boolean eccShown = lines.stream().map(String::strip).anyMatch(l -> l.startsWith("ECC Errors")
                || l.startsWith("Retired Pages") || l.startsWith("Remapped Rows") || l.startsWith("Double Bit")
                || l.startsWith("Uncorrectable") || l.startsWith("Pending"));
        if (out.stream().noneMatch(d -> d.severity().atLeast(Severity.WARN))) {
            // no ECC, retirement or remapping lines in the paste: nothing to promise about them
            out.add(Diagnosis.of(CheckId.GPU_ECC_UNCORRECTED.id(), eccShown ? Severity.PASS : Severity.INFO, "GPU",
                    eccShown ? "no uncorrectable ECC errors, remap failures or pending retirements in the paste"
                            : "the paste holds no ECC, retired-page or remapped-row section, so those were not judged",
                    eccShown ? "" : "nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER", 0, "", "nvidia-smi -q"));
        }
        return new ToolReading(out, Parsed.none().withNumbers(numbers));
    }

    /** A GPU section that showed its PCIe generation and no link width: the rule's verdict on the generation. */
    private static void generationOnly(int curGen, int maxGen, int genLine, List<String> lines, Optional<String> gpu,
                                       List<Diagnosis> out) {
        if (genLine == 0 || maxGen == 0) return;
        Verdict v = GpuPcieLinkRule.generation(curGen, maxGen);
        if (!v.passed()) out.add(judged(v, gpu, genLine, lines.get(genLine - 1)));
    }

    /** The rule's verdict on the GPU the section is about, with the paste's line as evidence. */
    private static Diagnosis judged(Verdict v, Optional<String> gpu, int n, String line) {
        return new Diagnosis(v.on(gpu.map(g -> "GPU " + g).orElse("GPU")), n, line, "nvidia-smi -q");
    }

    static java.util.OptionalDouble number(String s) {
        Matcher m = Pattern.compile("^-?\\d+(?:\\.\\d+)?").matcher(s.strip());
        return m.find() ? java.util.OptionalDouble.of(Double.parseDouble(m.group())) : java.util.OptionalDouble.empty();
    }
}

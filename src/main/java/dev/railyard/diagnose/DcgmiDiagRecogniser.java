package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.check.Fix;
import dev.railyard.check.rules.GpuXidRule;
import dev.railyard.check.rules.Verdict;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * dcgmi diag (its "| Diagnostic | Result |" table, rows continued over several lines) and dcgmi nvlink --link-status.
 * A test that failed is a FAIL carrying DCGM's own warning text; a skip is INFO; NVLinks reported Down are a FAIL.
 */
public record DcgmiDiagRecogniser() implements Recogniser {

    private static final Pattern ROW = Pattern.compile("^\\s*\\|\\s*([^|]*?)\\s*\\|\\s*([^|]*?)\\s*\\|?\\s*$");
    private static final Pattern GBS = Pattern.compile("([\\d.]+) GB/s");
    private static final Pattern GPU_LINKS = Pattern.compile("^\\s*gpuId (\\d+):\\s*$");

    @Override
    public ToolKind tool() {
        return ToolKind.DCGMI_DIAG;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("| Diagnostic", "Deployment", "NvLink Link Status", "| Warning ", "Integration", "Hardware");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> l.contains("| Diagnostic ") || l.contains("NvLink Link Status")
                || l.contains("-----  Deployment") || l.contains("-----  Integration") || l.contains("-----  Hardware")
                || l.contains("-----  Stress"));
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<Diagnosis> out = new ArrayList<>();
        List<Measurement> numbers = new ArrayList<>();
        List<String> lines = text.lines();
        String test = "", result = "";
        int testLine = 0;
        StringBuilder note = new StringBuilder();
        int passed = 0;
        for (int i = 0; i <= lines.size(); i++) {
            String l = i < lines.size() ? lines.get(i) : "";
            Matcher m = ROW.matcher(l);
            boolean row = i < lines.size() && m.find() && !l.contains("---") && !l.contains("===");
            String name = row ? m.group(1) : "";
            String value = row ? m.group(2) : "";
            Matcher g = GBS.matcher(value);
            if (g.find()) numbers.add(new Measurement(value.substring(0, g.start()).strip() + " bandwidth",
                    Double.parseDouble(g.group(1)), "GB/s"));
            if (row && name.isEmpty() || row && (name.equals("Warning") || name.equals("Info"))) {
                note.append(name.isEmpty() ? value : " " + value);
                continue;
            }
            if (!test.isEmpty()) passed += judge(test, result, note.toString(), testLine, text, out);
            test = row && !value.equals("Result") ? name : "";
            result = value;
            testLine = i + 1;
            note.setLength(0);
        }
        nvlink(text, out);
        if (out.stream().noneMatch(d -> d.severity().atLeast(Severity.INFO))) {
            out.add(Diagnosis.of(CheckId.GPU_XID.id(), Severity.PASS, "dcgmi diag", passed + " tests passed", "", 0,
                    "", "dcgmi diag"));
        }
        return new ToolReading(out, Parsed.none().withNumbers(numbers));
    }

    /** 1 when the test passed; the test's verdict is {@link GpuXidRule}'s. */
    private static int judge(String test, String result, String note, int n, TextLines text, List<Diagnosis> out) {
        Verdict v = GpuXidRule.dcgmTest(test, result, note);
        if (v.severity() != Severity.PASS) {
            out.add(Diagnosis.of(v, test, n, text.line(n), "dcgmi diag"));
        }
        return result.toLowerCase(java.util.Locale.ROOT).startsWith("pass") ? 1 : 0;
    }

    private static void nvlink(TextLines text, List<Diagnosis> out) {
        List<String> lines = text.lines();
        for (int i = 0; i + 1 < lines.size(); i++) {
            Matcher m = GPU_LINKS.matcher(lines.get(i));
            if (!m.find()) continue;
            String[] states = lines.get(i + 1).strip().split("\\s+");
            long down = java.util.Arrays.stream(states).filter("D"::equals).count();
            if (down > 0) {
                out.add(Diagnosis.of(CheckId.GPU_NVLINK.id(), Severity.FAIL, "GPU " + m.group(1), down + " of "
                                + states.length + " NVLinks are Down",
                        Fix.lines("nvidia-smi nvlink -s -i " + m.group(1), "systemctl status nvidia-fabricmanager",
                                Fix.note("on an NVSwitch system the fabric manager must run (same version as the "
                                        + "driver); otherwise reseat the NVLink bridge or send the board for "
                                        + "inspection")), i + 2, lines.get(i + 1), "dcgmi nvlink --link-status"));
            }
        }
    }
}

package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.model.BurnResult.Precision;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * gpu-fryer (huggingface/gpu-fryer): its summary, three lines per GPU ("GPU #7:  51494 Gflops/s (min: ..., max: ...,
 * dev: ...)", "Temperature: ...", "Throttling HW: false, Thermal SW: false, Thermal HW: false"), judged by burn's
 * rules ({@link BurnToolVerdicts}); its own "All GPUs seem healthy" is not taken on trust (a GPU at 0 Gflop/s fails).
 * The precision is the one its "Using precision(s):" line names alone; FP32, its only one before that line existed,
 * otherwise.
 */
public record GpuFryerRecogniser() implements Recogniser {

    private static final Pattern GPU = Pattern.compile("^\\s*GPU #(\\d+):\\s+(\\d+(?:\\.\\d+)?) Gflops/s \\(min: ");
    private static final Pattern THROTTLE = Pattern.compile(
            "Throttling HW: (true|false), Thermal SW: (true|false), Thermal HW: (true|false)");
    private static final Pattern DETECTED = Pattern.compile("Detected GPU #(\\d+): \"?(.+?)\"? \\((GPU-[0-9a-fA-F-]+)\\)");
    private static final Pattern PRECISIONS = Pattern.compile("Using precision\\(s\\):\\s*(.*)");

    @Override
    public ToolKind tool() {
        return ToolKind.GPU_FRYER;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("Gflops/s", "GPUs seem healthy", "GPUs are not healthy", "Freeing GPUs");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> l.contains("Gflops/s (min:") && GPU.matcher(l).find());
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<String> lines = text.lines();
        java.util.Map<Integer, String[]> detected = new java.util.HashMap<>();
        Precision precision = Precision.FP32;
        List<BurnToolGpu> gpus = new ArrayList<>();
        List<Measurement> numbers = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            Matcher d = DETECTED.matcher(l);
            if (d.find()) detected.put(Integer.parseInt(d.group(1)), new String[] {d.group(2), d.group(3)});
            Matcher p = PRECISIONS.matcher(l);
            if (p.find()) {
                List<String> named = List.of(p.group(1).strip().split("\\s+"));
                if (named.size() == 1 && List.of("FP32", "BF16", "FP8").contains(named.getFirst())) {
                    precision = Precision.valueOf(named.getFirst());
                }
            }
            Matcher g = GPU.matcher(l);
            if (!g.find()) continue;
            int index = Integer.parseInt(g.group(1));
            double gflops = Double.parseDouble(g.group(2));
            Optional<List<String>> throttles = Optional.empty();
            for (int k = i + 1; k < Math.min(lines.size(), i + 3); k++) {
                Matcher t = THROTTLE.matcher(lines.get(k));
                if (!t.find()) continue;
                List<String> on = new ArrayList<>();
                if (t.group(1).equals("true")) on.add("HW_SLOWDOWN");
                if (t.group(2).equals("true")) on.add("SW_THERMAL_SLOWDOWN");
                if (t.group(3).equals("true")) on.add("HW_THERMAL_SLOWDOWN");
                throttles = Optional.of(on);
            }
            String[] id = detected.get(index);
            numbers.add(new Measurement("GPU" + index + " Gflop/s", gflops, "Gflop/s"));
            gpus.add(new BurnToolGpu(index, id == null ? String.valueOf(index) : id[1],
                    Optional.ofNullable(id == null ? null : id[0]), precision,
                    gflops > 0 ? Optional.of(gflops) : Optional.empty(), gflops > 0, Optional.empty(),
                    Optional.empty(), Optional.empty(), throttles, i + 1));
        }
        return new ToolReading(BurnToolVerdicts.judge(gpus, "gpu-fryer", "gpu-fryer 600"),
                Parsed.none().withNumbers(numbers));
    }
}

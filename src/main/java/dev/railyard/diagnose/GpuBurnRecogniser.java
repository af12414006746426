package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.model.BurnResult.Precision;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * gpu-burn (wilicc/gpu-burn): its progress lines ("50.0%  proc'd: 18000 (6311 Gflop/s) - ...   errors: 0 - 0
 * temps: 51 C - 45 C"), the GPU list it starts with and its "Tested N GPUs: GPU 0: OK" summary, judged by burn's
 * rules ({@link BurnToolVerdicts}). Each GPU's speed is the mean of its non-zero Gflop/s over the progress lines.
 */
public record GpuBurnRecogniser() implements Recogniser {

    private static final Pattern PROGRESS = Pattern.compile(
            "(\\d+(?:\\.\\d+)?)%\\s+proc'd:\\s*(.*?)\\s+errors:\\s*(.*?)\\s+temps:\\s*((?:\\d+ C(?:\\s*-\\s*)?)+)");
    private static final Pattern DONE = Pattern.compile("(-?\\d+) \\((\\d+(?:\\.\\d+)?) Gflop/s\\)");
    private static final Pattern LISTED = Pattern.compile("^\\s*GPU (\\d+): (.+?) \\(UUID: (GPU-[0-9a-fA-F-]+)\\)");
    private static final Pattern SUMMARY = Pattern.compile("^\\s*GPU (\\d+): (OK|FAULTY)\\s*$");
    private static final Pattern INIT_FAILED = Pattern.compile("Couldn't init a GPU test: (.*)");

    @Override
    public ToolKind tool() {
        return ToolKind.GPU_BURN;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("proc'd:", "Tested ", "Gflop/s");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> l.contains("proc'd:") && PROGRESS.matcher(l).find());
    }

    /** What the progress lines say of one GPU, accumulated. */
    private static final class Seen {
        double gflopsSum;
        int gflopsCount;
        boolean worked;
        boolean died;
        long errors;
        int line;
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<String> lines = text.lines();
        Map<Integer, Seen> seen = new HashMap<>();
        Map<Integer, String[]> listed = new HashMap<>();
        Map<Integer, String> verdicts = new HashMap<>();
        Precision precision = Precision.FP32;
        String initFailed = null;
        boolean noneAlive = false;
        int gpus = 0;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            Matcher li = LISTED.matcher(l);
            if (li.find()) listed.put(Integer.parseInt(li.group(1)), new String[] {li.group(2), li.group(3)});
            Matcher s = SUMMARY.matcher(l);
            if (s.find()) verdicts.put(Integer.parseInt(s.group(1)), s.group(2));
            if (l.contains("using DOUBLES")) precision = Precision.FP64;
            Matcher f = INIT_FAILED.matcher(l);
            if (f.find()) initFailed = f.group(1).strip().isEmpty() ? l.strip() : "Couldn't init a GPU test: " + f.group(1).strip();
            if (l.contains("No clients are alive")) noneAlive = true;
            Matcher p = PROGRESS.matcher(l);
            while (p.find()) {
                Matcher d = DONE.matcher(p.group(2));
                int gpu = 0;
                while (d.find()) {
                    Seen g = seen.computeIfAbsent(gpu, k -> new Seen());
                    long done = Long.parseLong(d.group(1));
                    double gflops = Double.parseDouble(d.group(2));
                    if (done < 0) g.died = true;
                    if (done > 0) g.worked = true;
                    if (gflops > 0) {
                        g.gflopsSum += gflops;
                        g.gflopsCount++;
                    }
                    g.line = i + 1;
                    gpu++;
                }
                gpus = Math.max(gpus, gpu);
                errors(p.group(3), seen);
            }
        }
        List<BurnToolGpu> out = new ArrayList<>();
        List<Measurement> numbers = new ArrayList<>();
        for (int i = 0; i < gpus; i++) {
            Seen g = seen.get(i);
            String[] id = listed.get(i);
            Optional<Double> gflops = g.gflopsCount == 0 ? Optional.empty() : Optional.of(g.gflopsSum / g.gflopsCount);
            gflops.ifPresent(v -> numbers.add(new Measurement("GPU" + out.size() + " Gflop/s", v, "Gflop/s")));
            String failure = g.died ? "its test process died" + (noneAlive ? " (gpu-burn: No clients are alive)" : "")
                    : !g.worked && initFailed != null ? initFailed : null;
            out.add(new BurnToolGpu(i, id == null ? String.valueOf(i) : id[1], Optional.ofNullable(id == null ? null : id[0]),
                    precision, gflops, g.worked && !g.died, Optional.ofNullable(failure),
                    g.died ? Optional.empty() : Optional.of(g.errors), Optional.ofNullable(verdicts.get(i)),
                    Optional.empty(), g.line));
        }
        return new ToolReading(BurnToolVerdicts.judge(out, "gpu-burn", "gpu_burn -i N 600"),
                Parsed.none().withNumbers(numbers));
    }

    /**
     * "0 - -524288000  (WARNING!)- 0 - 1579  (DIED!)": a number per GPU, possibly negative (gpu-burn's counter
     * overflows), each followed by gpu-burn's flag. A GPU's errors are the last line's, any non-zero one kept.
     */
    private static void errors(String column, Map<Integer, Seen> seen) {
        String[] tokens = column.replace("(WARNING!)", " W ").replace("(DIED!)", " D ").strip().split("\\s+");
        int gpu = -1;
        for (String t : tokens) {
            if (t.matches("-?\\d+")) {
                gpu++;
                Seen g = seen.computeIfAbsent(gpu, k -> new Seen());
                long n = Long.parseLong(t);
                if (n != 0) g.errors = n;
            } else if (t.equals("D") && gpu >= 0) {
                seen.computeIfAbsent(gpu, k -> new Seen()).died = true;
            }
        }
    }
}

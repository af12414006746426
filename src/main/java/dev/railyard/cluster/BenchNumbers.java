package dev.railyard.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.model.Measurement;
import dev.railyard.model.SizeCurve;

import java.util.ArrayList;
import java.util.List;

/**
 * The numbers of validate's node benchmarks as {@link Measurement}s, read from the JSON their steps print: what the
 * summary lists and compare matches between runs. A step that gave no JSON or no number gives no measurement (its
 * finding says why); a field that is not a finite number is left out rather than read as zero.
 */
final class BenchNumbers {

    static final String LOOPBACK_TCP = "loopback TCP";
    static final String NCCL_BUSBW = "NCCL all_reduce busbw";
    static final String GPU_H2D = "GPU copy host->device";
    static final String GPU_D2H = "GPU copy device->host";
    static final String GPU_D2D = "GPU copy device->device";
    static final String STORAGE = "storage sequential ";

    private BenchNumbers() {
    }

    /** Each GPU's three copy rates (GB/s) from {@code bench gpu --format json}. */
    static List<Measurement> gpu(String node, StepResult r) {
        List<Measurement> out = new ArrayList<>();
        if (!r.completed()) return out;
        for (JsonNode g : StepJson.parse(r.stdout()).optional().map(j -> j.path("run").path("gpus")).orElse(missing())) {
            String subject = node + " GPU" + g.path("device").asInt();
            add(out, GPU_H2D, subject, g.path("h2dGBps"), "GB/s");
            add(out, GPU_D2H, subject, g.path("d2hGBps"), "GB/s");
            add(out, GPU_D2D, subject, g.path("d2dGBps"), "GB/s");
        }
        return out;
    }

    /** Sequential write and read (MB/s, 10^6) from {@code bench storage --format json}. */
    static List<Measurement> storage(String node, StepResult r) {
        List<Measurement> out = new ArrayList<>();
        if (!r.completed()) return out;
        for (JsonNode m : StepJson.parse(r.stdout()).optional().map(j -> j.path("results")).orElse(missing())) {
            add(out, STORAGE + m.path("job").asText("?"), node, m.path("megabytesPerSecond"), "MB/s");
        }
        return out;
    }

    /** busbw at the sweep's largest size, where NCCL's bandwidth has levelled off and nccl-tests users read it. */
    static List<Measurement> nccl(SizeCurve curve) {
        if (curve.points().isEmpty()) return List.of();
        SizeCurve.Point last = curve.points().getLast();
        if (!Double.isFinite(last.value()) || last.value() < 0) return List.of();
        return List.of(new Measurement(Measurement.atSize(curve.title(), last.bytes()), curve.subject(), last.value(), curve.unit()));
    }

    private static void add(List<Measurement> out, String benchmark, String subject, JsonNode value, String unit) {
        if (value.isNumber() && Double.isFinite(value.asDouble()) && value.asDouble() >= 0) {
            out.add(new Measurement(benchmark, subject, value.asDouble(), unit));
        }
    }

    private static JsonNode missing() {
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
}

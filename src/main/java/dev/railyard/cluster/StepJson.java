package dev.railyard.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.model.Finding;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.platform.JsonMapperFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads what a node's railyard step printed with {@code --format json}. Tolerant by design: the coordinator and the
 * node may run different builds, so a missing field is an absent reading, not an error.
 */
final class StepJson {

    private StepJson() {
    }

    /** The last JSON document in the output (a step may print progress lines before it), or why there is none. */
    static Reading<JsonNode> parse(String stdout) {
        String text = stdout.strip();
        int start = firstJsonStart(text);
        if (start < 0) return Reading.absent("no JSON in the step's output" + excerpt(text));
        try {
            return Reading.of(JsonMapperFactory.shared().readTree(text.substring(start)));
        } catch (Exception e) {
            return Reading.failed("step output", "not JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    private static int firstJsonStart(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if ((c == '{' || c == '[') && (i == 0 || text.charAt(i - 1) == '\n')) return i;
        }
        return -1;
    }

    private static String excerpt(String text) {
        if (text.isEmpty()) return "";
        String first = text.lines().findFirst().orElse("");
        return ": " + (first.length() > 120 ? first.substring(0, 117) + "..." : first);
    }

    /**
     * Findings from {@code check --format json}: a bare array of findings, or an object holding them under
     * "findings" (the shape check may move to). Unreadable entries are skipped, not fatal.
     */
    static List<Finding> findings(JsonNode root) {
        JsonNode list = root.isArray() ? root : root.path("findings");
        List<Finding> out = new ArrayList<>();
        if (!list.isArray()) return out;
        for (JsonNode f : list) {
            severity(f.path("severity").asText("")).ifPresent(s -> out.add(Finding.of(
                    f.path("id").asText("?"), s, f.path("subject").asText(""), f.path("observed").asText(""),
                    f.path("expected").asText(""), f.path("remediation").asText(""))));
        }
        return out;
    }

    private static Optional<Severity> severity(String text) {
        try {
            return Optional.of(Severity.valueOf(text.toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * A field written by report.Json: {"state": "present", "value": v}, {"state": "absent", "reason": why} or
     * {"state": "failed", "path": p, "cause": c} (earlier builds: a plain value, {"absent": why} or {"failed": p,
     * "cause": c}); a missing field is absent with {@code missing} as the reason.
     */
    static <T> Reading<T> reading(JsonNode field, Function<JsonNode, T> value, String missing) {
        if (field == null || field.isMissingNode() || field.isNull()) return Reading.absent(missing);
        // docs/json.md: a reading is {"state": present|absent|failed, ...}; the older plain-value form below is
        // still read, for nodes that run an earlier build
        if (field.isObject() && field.has("state") && (field.has("value") || field.has("reason") || field.has("path"))) {
            return switch (field.path("state").asText()) {
                case "absent" -> Reading.absent(field.path("reason").asText());
                case "failed" -> Reading.failed(field.path("path").asText(), field.path("cause").asText());
                default -> reading(field.path("value"), value, missing);
            };
        }
        if (field.isObject() && field.has("absent")) return Reading.absent(field.path("absent").asText());
        if (field.isObject() && field.has("failed")) {
            return Reading.failed(field.path("failed").asText(), field.path("cause").asText());
        }
        try {
            T v = value.apply(field);
            return v == null ? Reading.absent(missing) : Reading.of(v);
        } catch (RuntimeException e) {
            return Reading.failed("inventory", "unexpected value " + field + ": " + e.getMessage());
        }
    }
}

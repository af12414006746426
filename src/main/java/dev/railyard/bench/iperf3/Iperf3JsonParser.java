package dev.railyard.bench.iperf3;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;
import dev.railyard.platform.JsonMapperFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Parses {@code iperf3 --json} client output. iperf3 writes a complete JSON document even when the test failed:
 * a top-level "error", or (when interrupted) empty "intervals" and "end"; both become a ToolParseException that
 * names the line, so a caller never mistakes them for a 0 Gb/s result.
 */
public final class Iperf3JsonParser {

    static final String TOOL = "iperf3";
    public Iperf3Result parse(String output) {
        TextLines text = TextLines.of(output);
        int first = text.firstNonBlank();
        if (first == 0) throw new ToolParseException(TOOL, 0, "", "empty output");
        if (!text.line(first).strip().startsWith("{")) {
            throw new ToolParseException(TOOL, first, text.line(first),
                    "not iperf3 JSON output (run the client with --json)");
        }
        JsonNode root;
        try {
            root = JsonMapperFactory.shared().readTree(text.joined());
        } catch (JsonProcessingException e) {
            int n = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new ToolParseException(TOOL, n, text.line(n), "malformed JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new ToolParseException(TOOL, first, text.line(first), "not a JSON object");
        }
        JsonNode error = root.path("error");
        if (error.isTextual()) {
            int n = text.find("\"error\"");
            throw new ToolParseException(TOOL, n, text.line(n), "iperf3 reported an error: " + error.asText());
        }
        JsonNode end = root.path("end");
        JsonNode sent = end.path("sum_sent");
        JsonNode received = end.path("sum_received");
        if (!sent.isObject() || !received.isObject()) {
            int n = text.find("\"end\"");
            throw new ToolParseException(TOOL, n, text.line(n),
                    "no end.sum_sent/sum_received: the test did not complete (interrupted, or the server went away)");
        }
        JsonNode start = root.path("start");
        JsonNode testStart = start.path("test_start");
        List<Iperf3Interval> intervals = new ArrayList<>();
        for (JsonNode interval : root.path("intervals")) {
            JsonNode sum = interval.path("sum");
            intervals.add(new Iperf3Interval(
                    number(sum, "start", text), number(sum, "end", text),
                    number(sum, "bits_per_second", text) / 1e9,
                    (long) number(sum, "bytes", text),
                    sum.path("retransmits").asLong(0),
                    sum.path("omitted").asBoolean(false)));
        }
        return new Iperf3Result(
                start.path("version").asText(""),
                testStart.path("protocol").asText("TCP"),
                testStart.path("num_streams").asInt(end.path("streams").size()),
                intervals,
                number(sent, "bits_per_second", text) / 1e9,
                number(received, "bits_per_second", text) / 1e9,
                (long) number(sent, "bytes", text),
                (long) number(received, "bytes", text),
                number(sent, "seconds", text),
                sent.has("retransmits") ? OptionalLong.of(sent.path("retransmits").asLong()) : OptionalLong.empty());
    }

    private static double number(JsonNode node, String field, TextLines text) {
        JsonNode v = node.path(field);
        if (!v.isNumber()) {
            int n = text.find("\"" + field + "\"");
            throw new ToolParseException(TOOL, n, text.line(n), "missing or non-numeric \"" + field + "\"");
        }
        return v.asDouble();
    }
}

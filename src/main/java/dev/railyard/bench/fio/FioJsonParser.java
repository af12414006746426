package dev.railyard.bench.fio;

import dev.railyard.model.FioDirection;
import dev.railyard.model.FioJob;
import dev.railyard.model.FioResult;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;
import dev.railyard.platform.JsonMapperFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Parses {@code fio --output-format=json}. fio may print warnings ("fio: ...") before the JSON document, so the
 * document starts at the first line that opens with '{'. A job with a non-zero "error" fails the parse.
 */
public final class FioJsonParser {

    static final String TOOL = "fio";
    public FioResult parse(String output) {
        TextLines text = TextLines.of(output);
        int open = 0;
        for (int i = 1; i <= text.lines().size() && open == 0; i++) {
            if (text.line(i).startsWith("{")) open = i;
        }
        if (open == 0) {
            int n = text.firstNonBlank();
            throw new ToolParseException(TOOL, n, text.line(n), "no JSON document (run fio with --output-format=json)");
        }
        String json = String.join("\n", text.lines().subList(open - 1, text.lines().size()));
        JsonNode root;
        try {
            root = JsonMapperFactory.shared().readTree(json);
        } catch (JsonProcessingException e) {
            int n = e.getLocation() == null ? 0 : e.getLocation().getLineNr() + open - 1;
            throw new ToolParseException(TOOL, n, text.line(n), "malformed JSON: " + e.getOriginalMessage());
        }
        JsonNode jobs = root.path("jobs");
        if (!jobs.isArray() || jobs.isEmpty()) {
            int n = Math.max(text.find("\"jobs\""), open);
            throw new ToolParseException(TOOL, n, text.line(n), "no jobs in the fio output");
        }
        List<FioJob> parsed = new ArrayList<>();
        for (JsonNode job : jobs) {
            String name = job.path("jobname").asText("");
            if (job.path("error").asInt(0) != 0) {
                int n = text.find("\"error\"");
                throw new ToolParseException(TOOL, n, text.line(n),
                        "job '" + name + "' failed with error " + job.path("error").asInt());
            }
            String rw = job.path("job options").path("rw").asText(root.path("global options").path("rw").asText(""));
            parsed.add(new FioJob(name, rw, direction(job, "read", text), direction(job, "write", text)));
        }
        return new FioResult(root.path("fio version").asText(""), parsed);
    }

    private static FioDirection direction(JsonNode job, String side, TextLines text) {
        JsonNode d = job.path(side);
        if (!d.isObject()) {
            int n = text.find("\"jobname\"");
            throw new ToolParseException(TOOL, n, text.line(n), "job has no \"" + side + "\" section");
        }
        JsonNode bw = d.path("bw");
        JsonNode iops = d.path("iops");
        if (!bw.isNumber() || !iops.isNumber()) {
            int n = text.find("\"bw\"");
            throw new ToolParseException(TOOL, n, text.line(n), "missing \"bw\" or \"iops\" in " + side);
        }
        JsonNode clat = d.path("clat_ns");
        JsonNode pct = clat.path("percentile");
        return new FioDirection(bw.asLong(), iops.asDouble(), d.path("io_bytes").asLong(0),
                micros(clat.path("mean")), micros(pct.path("50.000000")), micros(pct.path("99.000000")),
                micros(pct.path("99.900000")));
    }

    private static OptionalDouble micros(JsonNode nanos) {
        return nanos.isNumber() ? OptionalDouble.of(nanos.asDouble() / 1000.0) : OptionalDouble.empty();
    }
}

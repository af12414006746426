package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;

import java.util.List;

/**
 * Recognises one tool's output and turns it into verdicts by parsing it. This is the hook where the perftest and
 * nccl-tests parsers plug in: until they do, their recognisers return no verdicts and the catalog rules speak alone.
 * A recogniser may throw ToolParseException; the Diagnoser reports that as an UNKNOWN verdict naming the line.
 */
public interface Recogniser {

    ToolKind tool();

    boolean recognises(TextLines text);

    List<Diagnosis> diagnose(TextLines text);
}

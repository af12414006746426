package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;

import java.util.Set;

/**
 * Recognises one tool's output and turns it into verdicts by parsing it. A recogniser may throw
 * ToolParseException; the Diagnoser reports that as an UNKNOWN verdict naming the line.
 */
public interface Recogniser {

    ToolKind tool();

    boolean recognises(TextLines text);

    /**
     * False when {@code whole} (the paste's lines joined) lacks every literal this tool's output must contain, so
     * a long log that is not this tool's costs one scan instead of a regex per line.
     */
    default boolean mayRecognise(String whole) {
        return true;
    }

    ToolReading read(TextLines text, DiagnoseTargets targets);

    /**
     * Catalog rules this recogniser judges better itself, so they never speak for its tool: NET/Socket is only a
     * fallback when the fabric was expected, which the nccl-tests recogniser knows and the bare rule does not.
     */
    default Set<String> supersedes() {
        return Set.of();
    }
}

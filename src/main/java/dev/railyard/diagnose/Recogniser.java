package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;

import java.util.List;
import java.util.Set;

/**
 * Recognises one tool's output and turns it into verdicts by parsing it. A recogniser may throw
 * ToolParseException; the Diagnoser reports that as an UNKNOWN verdict naming the line.
 */
public interface Recogniser {

    ToolKind tool();

    boolean recognises(TextLines text);

    /**
     * Literals of which this tool's output holds at least one near its start or its end (in the first or last
     * {@link Paste#ENDS} characters); empty when there are none to tell. The {@link Diagnoser} looks for all tools'
     * literals in one pass, so a long log that is no tool's costs one scan, not a regex per line per tool.
     */
    default List<String> signatureLiterals() {
        return List.of();
    }

    /** False when the literals {@code present} at the paste's ends rule this tool out. */
    default boolean mayRecognise(Set<String> present) {
        return signatureLiterals().isEmpty() || signatureLiterals().stream().anyMatch(present::contains);
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

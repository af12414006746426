package dev.railyard.bench;

/**
 * A tool's output that could not be parsed, naming the line (1-based, after any source header) so the user can
 * look at it. lineNumber is 0 when the problem is the whole output (empty, or a required section missing).
 */
public final class ToolParseException extends RuntimeException {

    private final String tool;
    private final int lineNumber;
    private final String line;
    private final String reason;

    public ToolParseException(String tool, int lineNumber, String line, String reason) {
        super(tool + ": line " + lineNumber + ": " + reason + (line.isEmpty() ? "" : " [" + line + "]"));
        this.tool = tool;
        this.lineNumber = lineNumber;
        this.line = line;
        this.reason = reason;
    }

    public String tool() {
        return tool;
    }

    public int lineNumber() {
        return lineNumber;
    }

    public String line() {
        return line;
    }

    public String reason() {
        return reason;
    }
}

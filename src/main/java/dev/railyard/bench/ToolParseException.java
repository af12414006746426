package dev.railyard.bench;

/**
 * A tool's output that does not read as that tool's output: a table row with the wrong number of columns, a
 * number that is not a number. Names the tool, the 1-based line number in the text given to the parser, the
 * offending line and why, so a user can find the line in their log. lineNumber is 0 when the problem is the whole
 * output (empty, or a required section missing).
 */
public final class ToolParseException extends RuntimeException {

    private final String tool;
    private final int lineNumber;
    private final String line;
    private final String reason;

    public ToolParseException(String tool, int lineNumber, String line, String reason) {
        super(tool + " output, line " + lineNumber + ": " + reason + (line.isEmpty() ? "" : ": \"" + abbreviate(line) + "\""));
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

    private static String abbreviate(String s) {
        return s.length() <= 160 ? s : s.substring(0, 157) + "...";
    }
}

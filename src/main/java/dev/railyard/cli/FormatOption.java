package dev.railyard.cli;

import picocli.CommandLine.Option;

/**
 * --format text|json for the commands that have no JUnit output: picocli itself refuses any other value (exit 2)
 * and lists the two in the error. {@code check} has its own option, which adds junit.
 */
public final class FormatOption {

    /** What these commands can print. */
    public enum TextOrJson { TEXT, JSON }

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
            description = "Output format: text or json (default: ${DEFAULT-VALUE}).")
    TextOrJson format = TextOrJson.TEXT;

    public boolean json() {
        return format == TextOrJson.JSON;
    }

    public boolean text() {
        return format == TextOrJson.TEXT;
    }
}

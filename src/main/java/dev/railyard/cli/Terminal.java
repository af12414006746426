package dev.railyard.cli;

import dev.railyard.platform.CommandRunner;
import dev.railyard.report.TextStyle;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * The text style for this process's standard output: colour only on a terminal and without NO_COLOR
 * (no-color.org: any non-empty value), the width from COLUMNS, else the terminal's own size, else 100 (a pipe).
 */
final class Terminal {

    private Terminal() {
    }

    static TextStyle style() {
        java.io.Console console = System.console();
        boolean tty = console != null && console.isTerminal();
        return style(System.getenv(), tty, Terminal::ttyColumns);
    }

    static TextStyle style(Map<String, String> env, boolean tty, Supplier<OptionalInt> ttyColumns) {
        boolean colour = tty && env.getOrDefault("NO_COLOR", "").isEmpty() && !"dumb".equals(env.get("TERM"));
        OptionalInt width = positive(env.get("COLUMNS"));
        if (width.isEmpty() && tty) width = ttyColumns.get();
        return new TextStyle(width.orElse(TextStyle.DEFAULT_WIDTH), colour);
    }

    private static OptionalInt positive(String s) {
        if (s == null) return OptionalInt.empty();
        try {
            int n = Integer.parseInt(s.trim());
            return n > 0 ? OptionalInt.of(n) : OptionalInt.empty();
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** Java cannot ask a tty its size; stty can ("ROWS COLUMNS"). Only run when stdout is a terminal. */
    private static OptionalInt ttyColumns() {
        CommandRunner.Result r = CommandRunner.system().run(List.of("stty", "-F", "/dev/tty", "size"), Duration.ofSeconds(1));
        if (!r.ok()) return OptionalInt.empty();
        String[] parts = r.stdout().trim().split("\\s+");
        return parts.length == 2 ? positive(parts[1]) : OptionalInt.empty();
    }
}

package dev.railyard.report;

import dev.railyard.model.Reading;
import dev.railyard.model.ValueText;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Table cells stay narrow: a reading that is absent or failed shows as "-[n]" or "![n]" and its reason is written
 * once below the table as "[n] absent (...)". Identical reasons share one number.
 */
final class Footnotes {

    private final Map<String, Integer> numbers = new LinkedHashMap<>();
    private String stripped = "";
    private boolean shortened;

    /**
     * Paths under {@code dir} are written relative to it from now on ("absent (no mtu)"), so that one reason
     * shared by every row of the table gets one number instead of one per row.
     */
    Footnotes relativeTo(String dir) {
        stripped = dir;
        return this;
    }

    <T> String cell(Reading<T> r, Function<? super T, String> format) {
        if (r instanceof Reading.Present<T>(T v)) return format.apply(v);
        String text = stripped.isEmpty() ? r.describe() : r.describe().replace(stripped, "");
        shortened |= !text.equals(r.describe());
        int n = numbers.computeIfAbsent(text, k -> numbers.size() + 1);
        return (r instanceof Reading.Failed<T> ? "!" : "-") + "[" + n + "]";
    }

    <T> String cell(Reading<T> r) {
        return cell(r, String::valueOf);
    }

    /** True when some reason had its path cut to the row's directory (the reader needs to be told which). */
    boolean shortened() {
        return shortened;
    }

    List<String> lines() {
        List<String> out = new ArrayList<>();
        numbers.forEach((text, n) -> out.add("[" + n + "] " + ValueText.printable(text)));
        return out;
    }
}

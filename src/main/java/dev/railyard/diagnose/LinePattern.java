package dev.railyard.diagnose;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A regex tried on a line only when the line holds one of the literals the regex cannot match without: a 50 MB
 * log is mostly lines no rule or signature is about, and String.indexOf skips them far faster than a regex can.
 * The literals are read from the regex itself (the longest plain run of each top-level alternative); a regex with
 * an alternative that has no run of three plain characters, or a case-insensitive one, is always tried.
 */
public record LinePattern(Pattern pattern, List<String> needles) {

    private static final String META = "\\^$.|?*+()[]{}";

    public static LinePattern compile(String regex) {
        return new LinePattern(Pattern.compile(regex), needles(regex));
    }

    public boolean find(String line) {
        if (!needles.isEmpty()) {
            boolean any = false;
            for (String n : needles) {
                if (line.contains(n)) {
                    any = true;
                    break;
                }
            }
            if (!any) return false;
        }
        return pattern.matcher(line).find();
    }

    /** Empty when the regex cannot be pre-filtered. */
    static List<String> needles(String regex) {
        if (regex.contains("(?i")) return List.of();
        List<String> out = new ArrayList<>();
        for (String alternative : topLevelAlternatives(regex)) {
            String best = longestRun(alternative);
            if (best.length() < 3) return List.of();
            out.add(best);
        }
        return List.copyOf(out);
    }

    private static List<String> topLevelAlternatives(String regex) {
        List<String> out = new ArrayList<>();
        int depth = 0, start = 0;
        boolean inClass = false;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\') {
                i++;
            } else if (inClass) {
                if (c == ']') inClass = false;
            } else if (c == '[') {
                inClass = true;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == '|' && depth == 0) {
                out.add(regex.substring(start, i));
                start = i + 1;
            }
        }
        out.add(regex.substring(start));
        return out;
    }

    /** The longest run of characters the regex matches literally and unconditionally, outside groups. */
    private static String longestRun(String alternative) {
        String best = "";
        StringBuilder run = new StringBuilder();
        int depth = 0;
        boolean inClass = false;
        for (int i = 0; i < alternative.length(); i++) {
            char c = alternative.charAt(i);
            char next = i + 1 < alternative.length() ? alternative.charAt(i + 1) : 0;
            boolean literal = false;
            if (inClass) {
                if (c == ']') inClass = false;
            } else if (c == '\\') {
                i++; // an escape (\\d, \\s, \\b, \\.) ends the run: keep it simple
            } else if (c == '[') {
                inClass = true;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else {
                literal = depth == 0 && META.indexOf(c) < 0;
            }
            if (literal && (next == '?' || next == '*' || next == '{')) literal = false; // optional: not required
            if (literal && next == '+') { // "b+": one b is required, but "abbc" has no "abc"
                run.append(c);
                literal = false;
                c = 0;
            }
            if (literal) {
                run.append(c);
            } else {
                if (run.length() > best.length()) best = run.toString();
                run.setLength(0);
            }
        }
        return run.length() > best.length() ? run.toString() : best;
    }
}

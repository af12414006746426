package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.model.RailyardException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tool output as people paste it, with what the pasting added taken away: markdown (fences, {@code > } quotes,
 * {@code **bold**}), HTML entities, tmux/screen borders, and the per-line prefixes of loggers and launchers (pdsh
 * {@code host: }, iperf3 {@code -T} titles, fio {@code <host>}, {@code 12:10:43 DEBUG| [stdout] }, syslog stamps of
 * programs other than the kernel, {@code ====| node1 |====} banners). Line numbers stay those of the paste, so
 * evidence points at the line the user sees. Kernel stamps stay: the kernel-log readers need them.
 *
 * @param removed what was taken away, in words, for the report
 * @param whole   the cleaned lines joined, so a signature absent from the whole text costs one scan, not one per line
 */
public record Paste(TextLines text, List<String> removed, String whole) {

    /** Longer lines are no tool's output; cutting them bounds the work per line. */
    static final int MAX_LINE = 16_384;

    private static final Pattern FENCE = Pattern.compile("^\\s*(?:```|~~~).*$");
    private static final Pattern QUOTE = Pattern.compile("^(?:\\s{0,3}>\\s?)+");
    private static final Pattern BORDER_START = Pattern.compile("^\\s*[│┃║]\\s?");
    private static final Pattern BORDER_END = Pattern.compile("\\s*[│┃║]\\s*$");
    private static final Pattern ENTITY = Pattern.compile("&(#\\d{1,7}|#[xX][0-9a-fA-F]{1,6}|amp|lt|gt|quot|apos|nbsp);");
    private static final Pattern BANNER = Pattern.compile("^\\s*[=\\-#*]{3,}\\|?\\s*[\\w.\\-]+\\s*\\|?[=\\-#*]{3,}\\s*$");
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;?]*[A-Za-z]");

    /** A decoration starts where the paste starts: these many non-blank lines decide whether to strip a prefix. */
    private static final int PREFIX_SAMPLE = 2000;

    /** A per-line prefix a logger or launcher adds, stripped when most lines carry one. */
    private record Prefix(String what, Pattern pattern, double share) {}

    private static final List<Prefix> PREFIXES = List.of(
            new Prefix("test-runner log prefixes",
                    Pattern.compile("^\\d{1,2}:\\d{2}:\\d{2}(?:[.,]\\d+)? +[A-Z]+ ?\\| ?(?:\\[std(?:out|err)] ?)?"), 0.5),
            new Prefix("syslog stamps", Pattern.compile(
                    "^[A-Z][a-z]{2} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d \\S+ (?!kernel\\b)[\\w\\-./]+(?:\\[\\d+])?: "), 0.5),
            new Prefix("fio client prefixes", Pattern.compile("^<[\\w.\\-]{1,64}> "), 0.3),
            // pdsh/clush write "host: ", iperf3 -T "title:  "; more than two blanks (or a tab) is the line's own
            new Prefix("host or title prefixes", Pattern.compile("^([A-Za-z0-9][\\w.\\-]{0,63}): {1,2}"), 0.6));

    /** Words that start a tool's own lines ("sockperf: ", "kernel: "): never a host prefix. */
    private static final Set<String> TOOL_WORDS = Set.of("sockperf", "fio", "iperf", "iperf3", "kernel", "nccl",
            "nvrm", "mlx5_core", "mlx4_core", "warning", "error", "note", "info", "debug", "hca_id", "summary",
            "edac", "pcieport", "nvidia", "perftest");

    public static Paste of(String raw) {
        refuseBinary(raw);
        String t = raw.startsWith("\uFEFF") ? raw.substring(1) : raw;
        List<String> lines = new ArrayList<>();
        Set<String> removed = new LinkedHashSet<>();
        int start = 0, n = t.length();
        while (start <= n) {
            int end = t.indexOf('\n', start);
            if (end < 0) end = n;
            if (start == n && end == n) break;
            lines.add(line(t, start, end, removed));
            start = end + 1;
        }
        stripPrefixes(lines, removed);
        // unchanged text needs no second copy to search: the raw string, less a final newline, is the same
        boolean same = removed.isEmpty() && t.indexOf('\r') < 0 && t.indexOf('\u001B') < 0;
        String whole = same ? t : String.join("\n", lines);
        return new Paste(new TextLines(lines), List.copyOf(removed), whole);
    }

    private static final int CR = 1, ESC = 2, AMP = 4, FENCE_CHAR = 8, GT = 16, STAR = 32, BORDER = 64;

    /** One pass over the line's characters says which of the (rare) decorations it can hold. */
    private static int marks(String t, int start, int end) {
        int m = 0;
        for (int i = start; i < end; i++) {
            char c = t.charAt(i);
            if (c < 0x7F) {
                switch (c) {
                    case '\r' -> m |= CR;
                    case '\u001B' -> m |= ESC;
                    case '&' -> m |= AMP;
                    case '`', '~' -> m |= FENCE_CHAR;
                    case '>' -> m |= GT;
                    case '*' -> m |= STAR;
                    default -> { }
                }
            } else if (c == '│' || c == '┃' || c == '║') {
                m |= BORDER;
            }
        }
        return m;
    }

    private static String line(String t, int start, int end, Set<String> removed) {
        if (end - start > MAX_LINE) {
            end = start + MAX_LINE;
            removed.add("the part of lines beyond " + MAX_LINE + " characters");
        }
        int marks = marks(t, start, end);
        String l = t.substring(start, end);
        if ((marks & CR) != 0) l = l.replace("\r", "");
        if ((marks & ESC) != 0) l = ANSI.matcher(l).replaceAll("");
        if ((marks & AMP) != 0) l = entities(l, removed);
        if ((marks & GT) != 0) {
            Matcher q = QUOTE.matcher(l);
            if (q.find() && !l.startsWith(">=")) {
                removed.add("markdown quote marks");
                l = l.substring(q.end());
            }
        }
        if ((marks & STAR) != 0 && l.contains("**")) {
            removed.add("markdown bold");
            l = l.replace("**", "");
        }
        if ((marks & BORDER) != 0) {
            String b = BORDER_END.matcher(BORDER_START.matcher(l).replaceFirst("")).replaceFirst("");
            if (!b.equals(l)) removed.add("terminal borders");
            l = b;
        }
        if ((marks & FENCE_CHAR) != 0 && FENCE.matcher(l).matches()) { // after quotes and borders: "> ```"
            removed.add("markdown code fences");
            return "";
        }
        if (startsLikeBanner(l) && BANNER.matcher(l).matches()
                && !l.strip().chars().allMatch(c -> c == '-' || c == '=')) {
            removed.add("host banners");
            return "";
        }
        return l;
    }

    private static boolean startsLikeBanner(String l) {
        for (int i = 0; i < l.length(); i++) {
            char c = l.charAt(i);
            if (c != ' ' && c != '\t') return (c == '=' || c == '-' || c == '#' || c == '*') && l.length() > 6;
        }
        return false;
    }


    private static String entities(String l, Set<String> removed) {
        Matcher m = ENTITY.matcher(l);
        if (!m.find()) return l;
        removed.add("HTML entities");
        StringBuilder sb = new StringBuilder();
        m.reset();
        while (m.find()) {
            String e = m.group(1);
            String r = switch (e) {
                case "amp" -> "&";
                case "lt" -> "<";
                case "gt" -> ">";
                case "quot" -> "\"";
                case "apos" -> "'";
                case "nbsp" -> " ";
                default -> codePoint(e);
            };
            m.appendReplacement(sb, Matcher.quoteReplacement(r));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private static String codePoint(String e) {
        int cp = e.startsWith("#x") || e.startsWith("#X") ? Integer.parseInt(e.substring(2), 16)
                : Integer.parseInt(e.substring(1));
        return Character.isValidCodePoint(cp) && cp != 0 ? new String(Character.toChars(cp)) : "\uFFFD";
    }

    /**
     * A prefix is stripped only where most non-blank lines carry it, so one "Note: " line stays as it is. Prefixes
     * nest (pdsh around a test runner's log around iperf3 -T), so the strip repeats while it finds one.
     */
    private static void stripPrefixes(List<String> lines, Set<String> removed) {
        for (int round = 0; round < 4 && stripOnePrefix(lines, removed); round++) {
            // another layer may sit under the one just taken away
        }
    }

    private static boolean stripOnePrefix(List<String> lines, Set<String> removed) {
        for (Prefix p : PREFIXES) {
            int nonBlank = 0, carrying = 0;
            Set<String> words = new HashSet<>();
            for (String l : lines) {
                if (l.isBlank()) continue;
                if (++nonBlank > PREFIX_SAMPLE) {
                    nonBlank--;
                    break;
                }
                Matcher m = p.pattern().matcher(l);
                if (m.find()) {
                    carrying++;
                    if (m.groupCount() >= 1 && m.group(1) != null) words.add(m.group(1).toLowerCase());
                }
            }
            if (nonBlank == 0 || carrying < Math.max(2, p.share() * nonBlank)) continue;
            if (words.stream().anyMatch(TOOL_WORDS::contains) || words.size() > 64) continue;
            for (int i = 0; i < lines.size(); i++) {
                String l = p.pattern().matcher(lines.get(i)).replaceFirst("");
                lines.set(i, FENCE.matcher(l).matches() ? "" : l); // a fence the prefix hid
            }
            removed.add(p.what());
            return true;
        }
        return false;
    }

    /** NUL bytes (or mostly control characters) mean a binary file, whose "lines" would only give false matches. */
    static void refuseBinary(String raw) {
        int sample = Math.min(raw.length(), 65_536);
        int control = 0;
        for (int i = 0; i < sample; i++) {
            char c = raw.charAt(i);
            if (c == 0) throw notText("it contains NUL bytes");
            if ((c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\u001B' && c != '\f') || c == '\uFFFD') {
                control++;
            }
        }
        if (sample > 0 && control > sample / 10) throw notText("most of its first bytes are not printable text");
    }

    private static RailyardException.Usage notText(String why) {
        return new RailyardException.Usage("not text output: " + why,
                "give diagnose the text a tool printed (a log file, or the tool's output piped in)");
    }
}

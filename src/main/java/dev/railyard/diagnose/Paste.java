package dev.railyard.diagnose;

import dev.railyard.bench.Literals;
import dev.railyard.bench.PackedLines;
import dev.railyard.bench.TextLines;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
 * @param cut     reading stopped at the cap: the rest of the input was not read
 * @param blank   the input held nothing but white space
 */
public record Paste(TextLines text, List<String> removed, boolean cut, boolean blank) {

    /** Longer lines are no tool's output; cutting them bounds the work per line. */
    static final int MAX_LINE = 16_384;

    /** A tool's output shows what it is near its start or its end: a long log between them is not searched. */
    static final int ENDS = 2 << 20;

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
            // iperf3 --forceflush behind a minute:second clock ("41:23.4: [  7]   0.00-1.00 sec ...")
            new Prefix("clock stamps", Pattern.compile("^\\d{1,2}:\\d{2}(?::\\d{2})?[.,]\\d{1,6}: "), 0.5),
            new Prefix("fio client prefixes", Pattern.compile("^<[\\w.\\-]{1,64}> "), 0.3),
            // pdsh/clush write "host: ", iperf3 -T "title:  "; more than two blanks (or a tab) is the line's own
            new Prefix("host or title prefixes", Pattern.compile("^([A-Za-z0-9][\\w.\\-]{0,63}): {1,2}"), 0.6));

    /** Words that start a tool's own lines ("sockperf: ", "kernel: "): never a host prefix. */
    private static final Set<String> TOOL_WORDS = Set.of("sockperf", "fio", "iperf", "iperf3", "kernel", "nccl",
            "nvrm", "mlx5_core", "mlx4_core", "warning", "error", "note", "info", "debug", "hca_id", "summary",
            "edac", "pcieport", "nvidia", "perftest", "lnkcap", "lnksta", "lnkctl", "lnkcap2", "lnksta2", "lnkctl2",
            "devcap", "devctl", "devsta", "devcap2", "devctl2");

    /** Text already in memory (tests, callers with a string): read as the bytes a file of it would hold. */
    public static Paste of(String raw) {
        try {
            return read(new ByteArrayInputStream(raw.getBytes(StandardCharsets.UTF_8)), "it", Long.MAX_VALUE);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
    }

    /**
     * Reads at most {@code cap} bytes of {@code in} line by line, each line decoded once and cleaned as it comes.
     * {@code name} names the input in the error binary input gets.
     */
    public static Paste read(InputStream in, String name, long cap) throws IOException {
        PackedLines.Builder packed = new PackedLines.Builder();
        Set<String> removed = new LinkedHashSet<>();
        PasteReader.Read r = new PasteReader(in, name, cap).read(new PasteReader.Sink() {
            @Override
            public void line(String line, int marks) {
                // an entity can stand for any character; the other decorations only take characters away
                packed.add(Paste.line(line, marks, removed), (marks & (PasteReader.HIGH | PasteReader.AMP)) == 0);
            }

            @Override
            public void plain(byte[] bytes, int from, int to) {
                if (startsLikeBanner(bytes, from, to)) {
                    line(new String(bytes, from, to - from, StandardCharsets.US_ASCII), 0);
                } else {
                    packed.addAscii(bytes, from, to);
                }
            }
        });
        List<String> lines = stripPrefixes(TerminalWrap.unwrap(packed.build(), removed), removed);
        return new Paste(new TextLines(lines), List.copyOf(removed), r.cut(), r.blank());
    }

    /** Bit i set: {@code literals.literal(i)} occurs in a line of the first or last {@link #ENDS} characters. */
    public long atEnds(Literals literals) {
        List<String> lines = text.lines();
        long found = 0;
        int head = 0;
        for (long chars = 0; head < lines.size() && chars < ENDS; head++) {
            found |= literals.in(lines, head);
            chars += length(lines, head) + 1;
        }
        int tail = lines.size();
        for (long chars = 0; tail > head && chars < ENDS; ) {
            found |= literals.in(lines, --tail);
            chars += length(lines, tail) + 1;
        }
        return found;
    }

    private static int length(List<String> lines, int i) {
        return lines instanceof PackedLines p ? p.length(i) : lines.get(i).length();
    }

    private static String line(String raw, int marks, Set<String> removed) {
        String l = raw;
        if ((marks & PasteReader.CUT) != 0) removed.add("the part of lines beyond " + MAX_LINE + " characters");
        if ((marks & PasteReader.CR) != 0) l = l.replace("\r", "");
        if ((marks & PasteReader.ESC) != 0) l = ANSI.matcher(l).replaceAll("");
        if ((marks & PasteReader.AMP) != 0) l = entities(l, removed);
        if ((marks & PasteReader.GT) != 0) {
            Matcher q = QUOTE.matcher(l);
            if (q.find() && !l.startsWith(">=")) {
                removed.add("markdown quote marks");
                l = l.substring(q.end());
            }
        }
        if ((marks & PasteReader.STAR) != 0 && l.contains("**")) {
            removed.add("markdown bold");
            l = l.replace("**", "");
        }
        if ((marks & PasteReader.BORDER) != 0) {
            String b = BORDER_END.matcher(BORDER_START.matcher(l).replaceFirst("")).replaceFirst("");
            if (!b.equals(l)) removed.add("terminal borders");
            l = b;
        }
        if ((marks & PasteReader.FENCE_CHAR) != 0 && FENCE.matcher(l).matches()) { // after quotes and borders: "> ```"
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

    private static boolean startsLikeBanner(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c != ' ' && c != '\t') return (c == '=' || c == '-' || c == '#' || c == '*') && to - from > 6;
        }
        return false;
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
    private static List<String> stripPrefixes(List<String> read, Set<String> removed) {
        List<String> lines = read;
        for (int round = 0; round < 4; round++) {
            Prefix p = prefix(lines).orElse(null);
            if (p == null) break;
            if (lines instanceof PackedLines) lines = new ArrayList<>(lines); // decorated pastes are small
            for (int i = 0; i < lines.size(); i++) {
                String l = p.pattern().matcher(lines.get(i)).replaceFirst("");
                lines.set(i, FENCE.matcher(l).matches() ? "" : l); // a fence the prefix hid
            }
            removed.add(p.what()); // another layer may sit under the one just taken away
        }
        return lines;
    }

    /** The prefix most of the first non-blank lines carry. */
    private static java.util.Optional<Prefix> prefix(List<String> lines) {
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
            return java.util.Optional.of(p);
        }
        return java.util.Optional.empty();
    }
}

package dev.railyard.diagnose;

import dev.railyard.model.RailyardException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Splits a byte stream into lines and decodes each once, with a bounded buffer: the input is never held whole, as
 * bytes or as one string. While it looks for the line end it notes which of the (rare) paste decorations a line
 * can hold, so {@link Paste} tries its patterns only on lines that need them. Binary input is refused from its
 * first {@value #SAMPLE} bytes; reading stops after {@code cap} bytes; a line longer than {@link Paste#MAX_LINE}
 * bytes is cut there.
 */
final class PasteReader {

    /** Decorations a line's bytes show it can hold; {@link Paste} acts on these. */
    static final int CR = 1, ESC = 2, AMP = 4, FENCE_CHAR = 8, GT = 16, STAR = 32, BORDER = 64;
    /** The line was longer than {@link Paste#MAX_LINE} bytes and lost its end. */
    static final int CUT = 128;
    /** A byte beyond ASCII: the line may hold a character beyond Latin-1. */
    static final int HIGH = 256;
    private static final int CONTROL = 512;

    /** How much of the start decides whether the input is text. */
    static final int SAMPLE = 65_536;

    private static final int[] MARK = marks();

    /** Receives each line: an ASCII line with none of the marks as its bytes, any other decoded with its marks. */
    interface Sink {
        void line(String line, int marks);

        void plain(byte[] bytes, int from, int to);
    }

    /** How reading went: whether the cap cut the input, and whether all of it was blank. */
    record Read(boolean cut, boolean blank) {}

    private final InputStream in;
    private final String name;
    private final long cap;
    private final byte[] buf = new byte[1 << 18];
    private int limit;
    /** Bytes read from the stream so far, and the stream offset of buf[0]. */
    private long total, base;
    private boolean eof, cut, blank = true, first = true;
    /** Characters of the start looked at for control characters, and how many of them were. */
    private int sampled, control;

    PasteReader(InputStream in, String name, long cap) {
        this.in = in;
        this.name = name;
        this.cap = cap;
    }

    Read read(Sink sink) throws IOException {
        int start = 0, pos = 0, lineMarks = 0;
        boolean skipping = false;
        while (true) {
            int i = skipping ? skip(pos, limit) : scan(pos, limit);
            int m = lineMarks | scanned;
            if (i < limit) {
                if (!skipping) emit(sink, start, i, m);
                skipping = false;
                start = pos = i + 1;
                lineMarks = 0;
                continue;
            }
            if (!skipping && i - start > Paste.MAX_LINE) {
                emit(sink, start, i, m);
                skipping = true;
            }
            if (skipping) start = i;
            if (eof) {
                if (!skipping && i > start) emit(sink, start, i, m);
                break;
            }
            System.arraycopy(buf, start, buf, 0, limit - start);
            base += start;
            limit -= start;
            pos = i - start;
            start = 0;
            lineMarks = m;
            fill();
        }
        if (sampled > 0 && control > sampled / 10) throw notText("most of its first bytes are not printable text");
        return new Read(cut, blank);
    }

    /** The marks of the bytes {@link #scan} passed. */
    private int scanned;

    /** The index of the first newline in buf from {@code i} on, or {@code end}; a small method the JIT compiles whole. */
    private int scan(int i, int end) {
        byte[] b = buf;
        int m = 0;
        while (i < end) {
            int c = b[i];
            if (c == '\n') break;
            m |= MARK[c & 0xFF];
            i++;
        }
        scanned = m;
        return i;
    }

    /** As {@link #scan}, for the rest of a cut line: only its end matters. */
    private int skip(int i, int end) {
        byte[] b = buf;
        while (i < end && b[i] != '\n') i++;
        scanned = 0;
        return i;
    }

    private void fill() throws IOException {
        int want = (int) Math.min(buf.length - limit, cap - total);
        int n = want == 0 ? -1 : in.read(buf, limit, want);
        if (n < 0) {
            eof = true;
            cut = total == cap && in.read() != -1;
            return;
        }
        for (int j = limit; j < limit + n && total + (j - limit) < SAMPLE; j++) {
            if (buf[j] == 0) throw notText(name + " contains NUL bytes");
        }
        limit += n;
        total += n;
    }

    private void emit(Sink sink, int start, int end, int marks) {
        if (first) {
            first = false;
            if (end - start >= 3 && (buf[start] & 0xFF) == 0xEF && (buf[start + 1] & 0xFF) == 0xBB
                    && (buf[start + 2] & 0xFF) == 0xBF) {
                start += 3; // a byte-order mark
            }
        }
        if (end - start > Paste.MAX_LINE) {
            end = start + Paste.MAX_LINE;
            marks |= CUT;
            while (end > start && (buf[end] & 0xC0) == 0x80) end--; // do not split a character
        }
        if (marks == 0 && !blank && sampled >= SAMPLE) {
            sink.plain(buf, start, end); // most lines of a long log: no String is made here
            return;
        }
        String line = new String(buf, start, end - start, StandardCharsets.UTF_8);
        if (blank) blank = line.isBlank();
        if (sampled < SAMPLE) sample(line, marks);
        if (marks == 0) {
            sink.plain(buf, start, end);
        } else {
            sink.line(line, marks);
        }
    }

    /** Counts control characters and undecodable bytes among the first {@value #SAMPLE} characters. */
    private void sample(String line, int marks) {
        int k = Math.min(line.length(), SAMPLE - sampled);
        if ((marks & CONTROL) != 0 || line.indexOf('\uFFFD') >= 0) {
            for (int i = 0; i < k; i++) {
                char c = line.charAt(i);
                if ((c < 0x20 && c != '\r' && c != '\t' && c != '\u001B' && c != '\f') || c == '\uFFFD') control++;
            }
        }
        sampled += k;
        if (sampled < SAMPLE) sampled++; // the newline
        if (sampled >= SAMPLE && control > sampled / 10) {
            throw notText("most of its first bytes are not printable text");
        }
    }

    private static RailyardException.Usage notText(String why) {
        return new RailyardException.Usage("not text output: " + why,
                "give diagnose the text a tool printed (a log file, or the tool's output piped in)");
    }

    private static int[] marks() {
        int[] m = new int[256];
        for (int c = 0; c < 0x20; c++) {
            if (c != '\t' && c != '\f' && c != '\r' && c != 0x1B) m[c] = CONTROL;
        }
        for (int c = 0x80; c < 0x100; c++) m[c] = HIGH;
        m['\r'] = CR;
        m[0x1B] = ESC;
        m['&'] = AMP;
        m['`'] = FENCE_CHAR;
        m['~'] = FENCE_CHAR;
        m['>'] = GT;
        m['*'] = STAR;
        m[0xE2] = BORDER | HIGH; // first byte of │ ┃ ║ (and of other symbols: Paste checks the characters)
        return m;
    }
}

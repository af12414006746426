package dev.railyard.diagnose;

import dev.railyard.bench.ibtools.KernelLogParser;
import dev.railyard.model.RailyardException;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Input of any size, with memory that does not grow with it. The first {@link #HEAD} bytes decide what the input
 * is; a kernel log longer than that is read line by line into a {@link KernelLogSummary} (the same reader and
 * verdicts as a pasted log) and the catalog's rules, holding no line once it is read. Any other input keeps its
 * first MiB and last 256 KiB as a paste, its middle read by the catalog's rules only.
 */
public final class LargeInput {

    /** Enough of a log to tell what it is; no tool's output that needs reading whole is longer in practice. */
    static final int HEAD = 1 << 20;
    /** How much of the end of a long input of another tool is read as a paste, with the head: a tool's result and last errors fit in it. */
    static final int TAIL = 1 << 18;

    private LargeInput() {
    }

    /** What was read: the report, and whether the cap cut the input. */
    public record Result(DiagnosisReport report, boolean cut) {}

    public static Result diagnose(InputStream raw, String name, long cap, Diagnoser diagnoser, DiagnoseTargets targets)
            throws IOException {
        BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
        in.mark(HEAD + 2);
        Paste head = Paste.read(new Bounded(in, HEAD + 1), name, Math.min(cap, HEAD));
        if (head.blank()) throw new RailyardException.Usage(name + " is empty", "give the file the tool's output was saved in, or pipe it in");
        if (!head.cut() || cap <= HEAD) return new Result(diagnoser.diagnose(head, targets), head.cut());
        DiagnosisReport first;
        try {
            first = diagnoser.diagnose(head, targets);
        } catch (RailyardException.Usage notRecognised) {
            first = null;
        }
        in.reset();
        if (first == null || first.tool() != ToolKind.KERNEL_LOG) return ends(in, name, cap, diagnoser, targets);
        return stream(in, name, cap, diagnoser, head.removed());
    }

    private static Result stream(InputStream in, String name, long cap, Diagnoser diagnoser, List<String> removed)
            throws IOException {
        KernelLogSummary summary = new KernelLogSummary();
        KernelLogParser.Reader reader = new KernelLogParser().reader(summary);
        DiagnosisCatalog.Scan rules = diagnoser.catalog().scan();
        long[] n = {0, 0};
        PasteReader.Read r = new PasteReader(in, name, cap).read(new PasteReader.Sink() {
            @Override
            public void line(String line, int marks) {
                take(line.indexOf('\r') >= 0 ? line.replace("\r", "") : line);
            }

            @Override
            public void plain(byte[] bytes, int from, int to) {
                take(new String(bytes, from, to - from, StandardCharsets.ISO_8859_1));
            }

            private void take(String line) {
                int i = (int) ++n[0];
                if (!line.isBlank()) n[1]++;
                rules.line(line, i);
                if (KernelLogParser.Reader.candidate(line)) reader.line(line, i);
            }
        });
        summary.lines = n[1];
        ToolReading own = KernelLogRecogniser.reading(summary);
        DiagnosisReport report = new DiagnosisReport(ToolKind.KERNEL_LOG,
                Diagnoser.merge(own.diagnoses(), rules.found(), Set.of()), own.parsed(), removed);
        return new Result(report, r.cut());
    }

    /**
     * Any other tool's output longer than the head: its first {@link #HEAD} and last {@link #TAIL} characters are read
     * as a paste (a tool's banner and settings come first, its result and errors last), and every line between them
     * goes through the catalog's rules only, held no longer than that, so an error in the middle is still found and
     * memory does not grow with the input.
     */
    private static Result ends(InputStream in, String name, long cap, Diagnoser diagnoser, DiagnoseTargets targets)
            throws IOException {
        DiagnosisCatalog.Scan rules = diagnoser.catalog().scan();
        StringBuilder head = new StringBuilder();
        ArrayDeque<String> tail = new ArrayDeque<>();
        long[] tailChars = {0};
        int[] n = {0, 0}; // lines read, lines in the head
        PasteReader.Read r = new PasteReader(in, name, cap).read(new PasteReader.Sink() {
            @Override
            public void line(String line, int marks) {
                take(line);
            }

            @Override
            public void plain(byte[] bytes, int from, int to) {
                take(new String(bytes, from, to - from, StandardCharsets.ISO_8859_1));
            }

            private void take(String line) {
                int i = ++n[0];
                if (head.length() < HEAD) {
                    head.append(line).append('\n');
                    n[1] = i;
                    return;
                }
                tail.addLast(line);
                tailChars[0] += line.length() + 1;
                while (tailChars[0] > TAIL && tail.size() > 1) {
                    int at = i - tail.size() + 1;
                    String middle = tail.pollFirst();
                    tailChars[0] -= middle.length() + 1;
                    rules.line(middle, at);
                }
            }
        });
        int middle = n[0] - n[1] - tail.size();
        for (String l : tail) head.append(l).append('\n');
        DiagnosisReport ends = diagnoser.diagnose(Paste.of(head.toString()), targets);
        List<String> ignored = new ArrayList<>(ends.ignored());
        if (middle > 0) {
            ignored.add(middle + " lines between the first MiB and the last 256 KiB (lines " + (n[1] + 1) + " to "
                    + (n[1] + middle) + "), read for errors only");
        }
        return new Result(new DiagnosisReport(ends.tool(), Diagnoser.merge(ends.diagnoses(), rules.found(), Set.of()),
                ends.parsed(), ignored), r.cut());
    }

    /** At most {@code limit} bytes of a stream, so a mark on it is never invalidated by reading further. */
    private static final class Bounded extends FilterInputStream {
        private long left;

        Bounded(InputStream in, long limit) {
            super(in);
            this.left = limit;
        }

        @Override
        public int read() throws IOException {
            if (left <= 0) return -1;
            int b = super.read();
            if (b >= 0) left--;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) return -1;
            int got = super.read(b, off, (int) Math.min(len, left));
            if (got > 0) left -= got;
            return got;
        }

        @Override
        public void close() {
            // the stream under it is read again after the head
        }
    }
}

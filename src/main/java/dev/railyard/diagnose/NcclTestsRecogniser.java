package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.model.NcclNet;
import dev.railyard.bench.nccltests.NcclTestsParser;
import dev.railyard.model.NcclTestsResult;
import dev.railyard.model.NcclTestsRow;
import dev.railyard.model.NcclTestsRun;
import dev.railyard.check.BenchVerdicts;
import dev.railyard.check.Fix;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * nccl-tests (all_reduce_perf and friends) and NCCL_DEBUG=INFO logs: bench.nccl.busbw at the largest size of each
 * run, #wrong > 0, NET/Socket where IB/RoCE was expected, and each distinct NCCL WARN line.
 */
public record NcclTestsRecogniser() implements Recogniser {

    private static final LinePattern SIGNATURE =
            LinePattern.compile("# ?nThread|#\\s+size\\s+count\\s+type|NCCL INFO|NCCL WARN|Avg bus bandwidth|out-of-place|"
                    + "NCCL version|^\\s*nThread\\s+\\d+\\s+nGpus|Test NCCL failure");
    /** A result row pasted without its header (tried only on lines that start with a digit). */
    private static final Pattern BARE_ROW = Pattern.compile("^\\s*\\d{1,18}\\s+\\d{1,18}\\s+(?:float|half|double|"
            + "bfloat16|int8|uint8|int32|uint32|int64|uint64)\\s+(?:sum|prod|max|min|avg|none|\\d+\\.\\d+)\\s");
    private static final Pattern SOCKET = Pattern.compile("NET/Socket|Using network Socket");
    private static final Pattern NET_USING = Pattern.compile("NET/IB ?: ?Using|Using network IB");
    private static final Pattern NET_LINE = Pattern.compile("NET/IB");
    private static final Pattern OOB = Pattern.compile("Out of bounds values");
    /** NCCL says why it warned in the INIT and NET lines before the WARN, which it prints only when asked. */
    private static final String WARN_FIX = Fix.lines(Fix.note("NCCL's lines before the WARN say which HCA, GID and "
            + "transport it picked; it prints them with these set, so set them and run the job again from this shell:"),
            "export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET");
    /** A log repeats a WARN once per rank; beyond this many distinct ones the rest say nothing new. */
    private static final int MAX_WARNS = 10;

    @Override
    public ToolKind tool() {
        return ToolKind.NCCL_TESTS;
    }

    @Override
    public List<String> signatureLiterals() {
        if (SIGNATURE.needles().isEmpty()) return List.of();
        List<String> any = new java.util.ArrayList<>(SIGNATURE.needles());
        any.addAll(List.of("float ", "half ", "double ", "int8 ", "int32 ", "int64 ")); // a bare table's type column
        return any;
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> SIGNATURE.find(l) || (startsWithDigit(l) && BARE_ROW.matcher(l).find()));
    }

    private static boolean startsWithDigit(String l) {
        for (int i = 0; i < l.length(); i++) {
            char c = l.charAt(i);
            if (c != ' ' && c != '\t') return c >= '0' && c <= '9';
        }
        return false;
    }

    /** The verdict on the transport already weighs whether sockets were expected; the bare rules cannot. */
    @Override
    public Set<String> supersedes() {
        return Set.of("nccl.socket-fallback", "nccl.no-libibverbs");
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        NcclTestsResult r = new NcclTestsParser().parse(text.joined());
        List<Diagnosis> out = new ArrayList<>();
        List<NcclTestsRun> runs = r.runs();
        for (int i = 0; i < runs.size(); i++) {
            NcclTestsRun run = runs.get(i);
            String s = runs.size() == 1 ? "nccl-tests" : "nccl-tests run " + (i + 1);
            int rowLine = run.largest().map(row -> TableRows.lastLineWith(text, row.sizeBytes(), row.count()))
                    .orElse(0);
            boolean othersHaveRows = runs.stream().anyMatch(o -> o != run && !o.rows().isEmpty());
            if (run.rows().isEmpty() && othersHaveRows) {
                out.add(Diagnosis.of(BenchVerdicts.NCCL_BUSBW, Severity.INFO, s, "no rows: the paste holds only "
                        + "this run's header", "", 0, "", "nccl-tests"));
                continue;
            }
            out.add(at(text, BenchVerdicts.ncclRunBusbw(s, run, targets.ncclBusbwGBps(), targets.fabricExpected()), rowLine));
            BenchVerdicts.ncclWrong(s, run).ifPresent(f -> out.add(at(text, f, wrongLine(text, run))));
            NcclLaunchVerdicts.separateJobs(s, run, text).ifPresent(out::add);
            NcclShape.cliff(s, run, text).ifPresent(out::add);
        }
        NcclLaunchVerdicts.skipped(r, text).ifPresent(out::add);
        Optional<Finding> socket = BenchVerdicts.ncclTransport("nccl-tests", r.net(), targets.fabricExpected());
        socket.ifPresent(f -> out.add(at(text, f, TableRows.firstLineMatching(text, SOCKET))));
        if (socket.isEmpty()) r.net().transport().ifPresent(t -> out.add(transport(text, r.net(), t)));
        boolean noTable = runs.stream().allMatch(run -> run.rows().isEmpty());
        Set<String> seen = new HashSet<>();
        for (NcclTestsResult.Warn w : r.warnings()) {
            // one verdict per message, whatever the opcode, rank or address in it
            if (seen.size() >= MAX_WARNS || !seen.add(w.text().replaceAll("\\d+", "#"))) continue;
            out.add(Diagnosis.of(BenchVerdicts.NCCL_BUSBW, noTable ? Severity.FAIL : Severity.WARN, "NCCL",
                    "NCCL WARN " + w.text() + NcclWarnMeanings.of(w.text()).map(m -> ": " + m).orElse("")
                            + (noTable ? " (and no result table: the run did not finish)" : ""),
                    WARN_FIX, w.lineNumber(), text.line(w.lineNumber()),
                    Diagnosis.ECHO));
        }
        if (out.isEmpty()) {
            out.add(Diagnosis.of(BenchVerdicts.NCCL_BUSBW, Severity.UNKNOWN, "nccl-tests", "no result table, "
                    + "NET line or WARN in the output", Rerun.andDiagnose("nothing to judge in the paste",
                    "nccl-tests.txt"), 0, "", "nccl-tests"));
        }
        return new ToolReading(NcclShape.oneHost(out, text), Parsed.of(r, numbers(r)));
    }

    private static Diagnosis transport(TextLines text, NcclNet net, NcclNet.Transport t) {
        String nics = net.ibNics().stream().map(n -> n.device() + ":" + n.port() + "/" + n.linkLayer())
                .collect(Collectors.joining(", "));
        int n = TableRows.firstLineMatching(text, t == NcclNet.Transport.SOCKET ? SOCKET : NET_USING);
        if (n == 0) n = TableRows.firstLineMatching(text, NET_LINE);
        return Diagnosis.of(BenchVerdicts.NCCL_BUSBW, Severity.INFO, "nccl-tests", "NCCL used " + t
                + (nics.isEmpty() ? "" : " over " + nics), "", n, text.line(n), "nccl-tests");
    }

    private static Diagnosis at(TextLines text, Finding f, int line) {
        return new Diagnosis(f, line, text.line(line), "nccl-tests");
    }

    private static int wrongLine(TextLines text, NcclTestsRun run) {
        return run.rows().stream().filter(row -> row.wrong() > 0).findFirst()
                .map(row -> TableRows.lastLineWith(text, row.sizeBytes(), row.count()))
                .orElseGet(() -> TableRows.firstLineMatching(text, OOB));
    }

    private static List<Measurement> numbers(NcclTestsResult r) {
        List<Measurement> out = new ArrayList<>();
        for (int i = 0; i < r.runs().size(); i++) {
            NcclTestsRun run = r.runs().get(i);
            String p = r.runs().size() == 1 ? "" : "run " + (i + 1) + " ";
            run.largest().ifPresent(row -> {
                NcclTestsRow.Measurement m = row.outOfPlace();
                out.add(new Measurement(p + "busbw at " + row.sizeBytes() + " B", m.busbwGBps(), "GB/s"));
                out.add(new Measurement(p + "algbw at " + row.sizeBytes() + " B", m.algbwGBps(), "GB/s"));
                out.add(new Measurement(p + "time at " + row.sizeBytes() + " B", m.timeUs(), "µs"));
            });
            run.avgBusBandwidth().ifPresent(v -> out.add(new Measurement(p + "avg bus bandwidth (sweep)", v, "GB/s")));
            if (!run.rows().isEmpty()) out.add(new Measurement(p + "#wrong", run.totalWrong(), "values"));
            if (!run.devices().isEmpty()) out.add(new Measurement(p + "ranks", run.devices().size(), "ranks"));
        }
        return out;
    }
}

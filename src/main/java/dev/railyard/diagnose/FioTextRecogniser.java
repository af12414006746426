package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.fio.FioGroup;
import dev.railyard.model.FioJob;
import dev.railyard.bench.fio.FioTextParser;
import dev.railyard.bench.fio.FioTextResult;
import dev.railyard.check.Fix;
import dev.railyard.check.StorageSeqVerdict;
import dev.railyard.check.rules.StorageSeqRule;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * fio's text output, any version: the same verdicts as {@link FioRecogniser} per job, the "Run status group"
 * bandwidth when only the summary was pasted, and a FAIL for a job that reported an error (a WARN for one killed
 * by a signal: its numbers cover part of the run).
 */
public record FioTextRecogniser() implements Recogniser {

    private static final LinePattern SIGNATURE = LinePattern.compile("Run status group \\d|\\(groupid=\\d+, jobs=\\d+\\)"
            + "|READ: bw=|WRITE: bw=|TRIM: bw=|READ: io=|WRITE: io=|read\\s*: IOPS=|write\\s*: IOPS=|read\\s*: io="
            + "|write\\s*: io=|^Starting \\d+ process");

    /** A job killed by a signal: the OOM killer (memory grows with iodepth and numjobs), or whoever stopped it. */
    private static final String KILLED_FIX = Fix.lines("dmesg | grep -iE 'out of memory|oom-kill|killed process'",
            Fix.note("an OOM kill: lower iodepth or numjobs; none: something else stopped fio (a timeout, a "
                    + "scheduler, a user)"));
    /** fio's own error line names the call and errno; these show the usual causes. */
    private static final String ERROR_FIX = Fix.lines(Fix.note("the target's file system (direct=1 fails on one "
                    + "without O_DIRECT, such as tmpfs), its free space, and device errors:"), "df -hT",
            "dmesg | grep -iE 'I/O error|nvme|blk_update_request'",
            Fix.note("and that this user may write the job's filename"));

    @Override
    public ToolKind tool() {
        return ToolKind.FIO_TEXT;
    }

    @Override
    public List<String> signatureLiterals() {
        return SIGNATURE.needles();
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> SIGNATURE.find(l));
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        FioTextResult r = new FioTextParser().parse(text);
        List<Diagnosis> out = new ArrayList<>();
        List<Measurement> numbers = new ArrayList<>();
        for (FioTextResult.Failure f : r.failures()) {
            out.add(Diagnosis.of(StorageSeqRule.fioError(f.what() + (f.killed() ? ": the numbers cover only part "
                    + "of the run" : ""), f.killed(), f.killed() ? KILLED_FIX : ERROR_FIX), "fio", f.lineNumber(),
                    f.line(), "fio"));
        }
        for (FioJob job : r.jobs()) {
            int n = Math.max(text.find(job.name() + ": (groupid="), 0);
            FioRecogniser.numbers(job, "read", job.read(), numbers);
            FioRecogniser.numbers(job, "write", job.write(), numbers);
            boolean active = job.read().active() || job.write().active();
            if (!active) continue;
            if (!job.rw().contains("rand") && !job.rw().isEmpty() && !job.rw().equals("rw")) {
                out.add(new Diagnosis(FioRecogniser.sequential(job, targets), n, text.line(n), "fio"));
            } else {
                out.add(Diagnosis.of(StorageSeqVerdict.ID, Severity.INFO, "fio " + job.name(),
                        (job.rw().isEmpty() ? "pattern not in the paste" : job.rw() + " I/O") + ": "
                                + rates(job) + ", not judged against the sequential bar", "", n, text.line(n),
                        "fio"));
            }
        }
        for (FioGroup g : r.groups()) {
            String name = "group " + g.group() + " " + g.direction() + " bandwidth";
            numbers.add(new Measurement(name, FioRecogniser.round(g.mebibytesPerSecond()), "MiB/s"));
        }
        if (r.jobs().stream().noneMatch(j -> j.read().active() || j.write().active()) && !r.groups().isEmpty()) {
            FioGroup g = r.groups().getFirst();
            int n = TableRows.firstLineMatching(text, Pattern.compile("^\\s*" + g.direction() + ": "));
            out.add(Diagnosis.of(StorageSeqVerdict.ID, Severity.INFO, "fio group " + g.group(),
                    String.format(Locale.ROOT, "%s %.1f MiB/s (the run status summary; the job lines, with the "
                            + "pattern, were not in the paste)", g.direction(), g.mebibytesPerSecond()),
                    Rerun.andDiagnose("only the summary is here; a verdict needs the job lines, which name the "
                            + "pattern", "fio.txt"), n, text.line(n), "fio"));
        }
        if (out.isEmpty()) {
            out.add(Diagnosis.of(StorageSeqVerdict.ID, Severity.UNKNOWN, "fio", "fio output without a job result "
                    + "or a run status summary", Rerun.andDiagnose("nothing to judge in the paste", "fio.txt"), 0,
                    "", "fio"));
        }
        return new ToolReading(out, Parsed.of(r, numbers));
    }

    private static String rates(FioJob job) {
        List<String> parts = new ArrayList<>();
        if (job.read().active()) parts.add(String.format(Locale.ROOT, "read %.1f MiB/s, %.0f IOPS",
                job.read().mebibytesPerSecond(), job.read().iops()));
        if (job.write().active()) parts.add(String.format(Locale.ROOT, "write %.1f MiB/s, %.0f IOPS",
                job.write().mebibytesPerSecond(), job.write().iops()));
        return String.join("; ", parts);
    }
}

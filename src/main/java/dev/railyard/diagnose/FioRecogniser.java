package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.model.FioDirection;
import dev.railyard.model.FioJob;
import dev.railyard.bench.fio.FioJsonParser;
import dev.railyard.model.FioResult;
import dev.railyard.check.StorageSeqVerdict;
import dev.railyard.check.rules.StorageSeqRule;
import dev.railyard.check.rules.Verdict;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * fio JSON: a bench.storage.seq verdict per sequential job (against --seq-mibps, else the number alone), and the
 * bandwidth and IOPS of every job and direction. Random jobs measure IOPS, not the sequential bar, so they only
 * report their numbers.
 */
public record FioRecogniser() implements Recogniser {

    @Override
    public ToolKind tool() {
        return ToolKind.FIO_JSON;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("\"fio version\"");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.find("\"fio version\"") > 0;
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        FioResult result = new FioJsonParser().parse(text.joined());
        List<Diagnosis> out = new ArrayList<>();
        List<Measurement> numbers = new ArrayList<>();
        for (FioJob job : result.jobs()) {
            int n = Math.max(text.find("\"jobname\" : \"" + job.name() + "\""), 0);
            numbers(job, "read", job.read(), numbers);
            numbers(job, "write", job.write(), numbers);
            if (!job.rw().contains("rand") && (job.read().active() || job.write().active())) {
                out.add(new Diagnosis(sequential(job, targets), n, text.line(n), "fio"));
            } else {
                out.add(Diagnosis.of(StorageSeqVerdict.ID, Severity.INFO, "fio " + job.name(),
                        "random I/O (" + job.rw() + "): reported below, not judged against the sequential bar", "",
                        n, text.line(n), "fio"));
            }
        }
        return new ToolReading(out, Parsed.of(result, numbers));
    }

    static Finding sequential(FioJob job, DiagnoseTargets targets) {
        if (targets.storageSeqMiBps().isPresent()) {
            return new StorageSeqVerdict(targets.storageSeqMiBps()).judge("fio " + job.name(), job);
        }
        // the rule's INFO, said as a paste is: its pattern beside the number, and how to give diagnose a floor
        FioDirection d = job.rw().contains("write") ? job.write() : job.read();
        Verdict v = StorageSeqRule.judge(String.format(Locale.ROOT, "%.0f MiB/s (%s)", d.mebibytesPerSecond(),
                job.rw()), d.mebibytesPerSecond(), Optional.empty());
        return new Finding(v.id().id(), v.severity(), "fio " + job.name(), v.observed(), v.expected(),
                "# pass --seq-mibps N to judge it (the NVMe drives of two V100 nodes gave about 2100 MiB/s)");
    }

    static void numbers(FioJob job, String side, FioDirection d, List<Measurement> out) {
        if (!d.active()) return;
        out.add(new Measurement(job.name() + " " + side + " bandwidth", round(d.mebibytesPerSecond()), "MiB/s"));
        out.add(new Measurement(job.name() + " " + side + " IOPS", round(d.iops()), "IOPS"));
        d.clatP99Us().ifPresent(v -> out.add(new Measurement(job.name() + " " + side + " clat p99", round(v), "µs")));
    }

    /** Two decimals, or four significant digits for numbers below 10 (0.0876 Gb/s stays 0.0876). */
    static double round(double v) {
        if (v == 0 || !Double.isFinite(v)) return v;
        double scale = Math.pow(10, Math.max(2, 3 - (int) Math.floor(Math.log10(Math.abs(v)))));
        return Math.round(v * scale) / scale;
    }
}

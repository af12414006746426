package dev.railyard.check;

import dev.railyard.check.rules.StorageSeqRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.FioDirection;
import dev.railyard.model.FioJob;

import java.util.Locale;
import java.util.Optional;

/**
 * bench.storage.seq for one sequential fio job: the direction it ran and its bandwidth, handed to
 * {@link StorageSeqRule} with the floor in MiB/s (none: INFO).
 */
public record StorageSeqVerdict(Optional<Double> minimumMiBps) {

    public static final String ID = CheckId.BENCH_STORAGE_SEQ.id();

    public StorageSeqVerdict(double minimumMiBps) {
        this(Optional.of(minimumMiBps));
    }

    public Finding judge(String host, FioJob job) {
        boolean write = job.rw().contains("write");
        FioDirection d = write ? job.write() : job.read();
        String subject = host + " " + (write ? "sequential write" : "sequential read");
        String observed = String.format(Locale.ROOT, "%.0f MiB/s", d.mebibytesPerSecond());
        return StorageSeqRule.judge(observed, d.mebibytesPerSecond(), minimumMiBps).on(subject);
    }

    /** fio did not produce a result for one direction: a FAIL, a full disk named as such. */
    public static Finding fioFailed(String subject, String direction, String fioSays, boolean direct) {
        return StorageSeqRule.fioFailed(fioSays, direct).on(subject + " " + direction);
    }
}

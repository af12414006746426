package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.FioDirection;
import dev.railyard.model.FioJob;
import dev.railyard.model.Severity;

/**
 * bench.storage.seq: a sequential fio job against the bandwidth the disk should give (a PCIe Gen3 NVMe
 * drive gives about 2100 MiB/s write and 1800-2400 MiB/s read). Below the floor is a FAIL.
 */
public record StorageSeqVerdict(double minimumMiBps) {

    public static final String ID = CheckId.BENCH_STORAGE_SEQ.id();

    public Finding judge(String host, FioJob job) {
        boolean write = job.rw().contains("write");
        FioDirection d = write ? job.write() : job.read();
        String subject = host + " " + (write ? "sequential write" : "sequential read");
        String observed = String.format("%.0f MiB/s", d.mebibytesPerSecond());
        String expected = String.format(">= %.0f MiB/s", minimumMiBps);
        if (d.mebibytesPerSecond() >= minimumMiBps) return Finding.pass(ID, subject, observed, expected);
        return new Finding(ID, Severity.FAIL, subject, observed, expected,
                Fix.lines(Fix.note("a drive on a narrower or slower PCIe link than it can do (LnkSta below LnkCap), or "
                                + "one throttling when hot:"),
                        "lspci -vv | grep -E 'Non-Volatile|LnkCap:|LnkSta:'",
                        "for d in /dev/nvme[0-9]; do nvme smart-log \"$d\" | grep -iE 'temperature|warning'; done"));
    }

    /** fio did not produce a result for one direction: a FAIL, a full disk named as such. */
    public static Finding fioFailed(String subject, String direction, String fioSays, boolean direct) {
        boolean full = fioSays.contains("No space left on device") || fioSays.contains("error=28");
        String observed = full ? "disk full: " + fioSays : fioSays;
        String fix = full ? Fix.lines(Fix.note("free space on that disk, or run again with a smaller --size:"), "df -h")
                : Fix.lines(Fix.note("run the fio command above by hand to see its error; the directory must be "
                        + "writable with room for --size" + (direct ? "; a filesystem without O_DIRECT (tmpfs) needs "
                        + "--no-direct" : "")), "df -h");
        return new Finding(ID, Severity.FAIL, subject + " " + direction, observed, "a fio result", fix);
    }
}

package dev.railyard.check;

import dev.railyard.model.Finding;
import dev.railyard.model.FioDirection;
import dev.railyard.model.FioJob;
import dev.railyard.model.Severity;

/**
 * bench.storage.seq: a sequential fio job against the bandwidth the disk should give (seed 001 measured about
 * 2100 MiB/s write and 1800-2400 MiB/s read on its NVMe drives). Below the floor is a FAIL.
 */
public record StorageSeqVerdict(double minimumMiBps) {

    public static final String ID = "bench.storage.seq";

    public Finding judge(String host, FioJob job) {
        boolean write = job.rw().contains("write");
        FioDirection d = write ? job.write() : job.read();
        String subject = host + " " + (write ? "sequential write" : "sequential read");
        String observed = String.format("%.0f MiB/s", d.mebibytesPerSecond());
        String expected = String.format(">= %.0f MiB/s", minimumMiBps);
        if (d.mebibytesPerSecond() >= minimumMiBps) return Finding.pass(ID, subject, observed, expected);
        return new Finding(ID, Severity.FAIL, subject, observed, expected,
                "check the drive's PCIe link (lspci -vv: LnkSta vs LnkCap), that the job used --direct=1, and "
                        + "nvme smart-log for thermal throttling");
    }
}

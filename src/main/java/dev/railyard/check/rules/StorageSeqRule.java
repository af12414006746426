package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.Locale;
import java.util.Optional;

/**
 * bench.storage.seq, the one rule: a sequential fio job's bandwidth against expect.storage_seq_mbps (a PCIe Gen3 NVMe
 * drive gives about 2100 MiB/s write and 1800-2400 MiB/s read; there is no honest default). `bench storage`, the
 * storage step of validate --full (which hands the node the spec's floor) and diagnose's pasted fio all judge
 * through here; the spec says MB/s, fio MiB/s, and callers convert.
 */
public final class StorageSeqRule implements Rule {

    public static final CheckId ID = CheckId.BENCH_STORAGE_SEQ;
    public static final String NO_FLOOR = "no floor given";

    StorageSeqRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "fio sequential read and write bandwidth (MiB/s), whether fio gave a result; diagnose: the kernel's "
                + "block I/O errors and NVMe timeouts";
    }

    @Override
    public String thresholds() {
        return "expect.storage_seq_mbps (no default)";
    }

    @Override
    public String severities() {
        return "below: FAIL; no result from fio, I/O errors or an NVMe timeout: FAIL; fio killed mid-run: WARN; "
                + "no floor: INFO";
    }

    @Override
    public String fix() {
        return "the drive's PCIe link and temperature; a full disk: free space or a smaller --size";
    }

    public static String expected(Optional<Double> floorMiBps) {
        return floorMiBps.map(f -> String.format(Locale.ROOT, ">= %.0f MiB/s", f)).orElse(NO_FLOOR);
    }

    /** One direction's bandwidth; {@code observed} says it as the path measured it. */
    public static Verdict judge(String observed, double mibps, Optional<Double> floorMiBps) {
        String expected = expected(floorMiBps);
        if (floorMiBps.isEmpty()) return new Verdict(ID, Severity.INFO, observed, expected, "");
        if (mibps >= floorMiBps.get()) return new Verdict(ID, Severity.PASS, observed, expected, "");
        return new Verdict(ID, Severity.FAIL, observed, expected, SLOW);
    }

    /** fio did not produce a result for one direction: a FAIL, a full disk named as such. */
    public static Verdict fioFailed(String fioSays, boolean direct) {
        boolean full = fioSays.contains("No space left on device") || fioSays.contains("error=28");
        String observed = full ? "disk full: " + fioSays : fioSays;
        String fix = full ? Fix.lines(Fix.note("free space on that disk, or run again with a smaller --size:"), "df -h")
                : Fix.lines(Fix.note("run the fio command above by hand to see its error; the directory must be "
                        + "writable with room for --size" + (direct ? "; a filesystem without O_DIRECT (tmpfs) needs "
                        + "--no-direct" : "")), "df -h");
        return new Verdict(ID, Severity.FAIL, observed, "a fio result", fix);
    }

    /** An error fio printed in a paste: killed mid-run, its numbers cover part of the run; else no result. */
    public static Verdict fioError(String observed, boolean killed, String fix) {
        return new Verdict(ID, killed ? Severity.WARN : Severity.FAIL, observed, "a fio result", fix);
    }

    /** The kernel failed reads or writes, or an NVMe controller stopped answering: the disk lost data. */
    public static Verdict deviceFault(String observed, String fix) {
        return new Verdict(ID, Severity.FAIL, observed, "no I/O errors", fix);
    }

    private static final String SLOW = Fix.lines(Fix.note("a drive on a narrower or slower PCIe link than it can do "
                    + "(LnkSta below LnkCap), or one throttling when hot:"),
            "lspci -vv | grep -E 'Non-Volatile|LnkCap:|LnkSta:'",
            "for d in /dev/nvme[0-9]; do nvme smart-log \"$d\" | grep -iE 'temperature|warning'; done");
}

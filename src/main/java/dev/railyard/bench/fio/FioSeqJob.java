package dev.railyard.bench.fio;

import java.nio.file.Path;
import java.util.List;

/**
 * One of the classic NVMe bring-up's sequential jobs with the knobs `bench storage` exposes: size, time limit, block size and
 * O_DIRECT (off only where the filesystem refuses it, such as tmpfs, since the page cache flatters the disk).
 */
public record FioSeqJob(FioRunner.Pattern pattern, Path file, String size, int runtimeSeconds, String blockSize,
                        boolean direct) {

    public List<String> argv() {
        return List.of("fio", "--name=" + pattern.rw + "_test", "--filename=" + file, "--size=" + size,
                "--rw=" + pattern.rw, "--bs=" + blockSize, "--direct=" + (direct ? 1 : 0), "--numjobs=1",
                "--runtime=" + runtimeSeconds, "--group_reporting", "--output-format=json");
    }
}

package dev.railyard.platform;

import dev.railyard.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One validate run per cluster from a machine: while another process holds validate's lock of a cluster, a second
 * `railyard validate` of that cluster exits 3 before it reaches any node, naming the run that holds it; another
 * cluster is free, and so is this one once the holder has gone.
 */
class ValidateLockTest {

    @Test
    void aSecondValidateOfTheSameClusterExits3NamingTheRunThatHoldsIt(@TempDir Path tmp) throws Exception {
        Path dir = NodeLock.lockDir(System::getenv);
        String cluster = "busy-" + ProcessHandle.current().pid();
        Path spec = Files.writeString(tmp.resolve("cluster.yaml"), """
                cluster: %s
                nodes:
                  - {name: gpuserver1, address: 127.0.0.2}
                  - {name: gpuserver2, address: 127.0.0.3}
                """.formatted(cluster));
        String[] validate = {"validate", "--spec", spec.toString(), "--out", tmp.resolve("report").toString(), "--no-history"};
        try (NodeLockTest.Holder h = NodeLockTest.Holder.start("--cluster", dir.toString(), cluster, "20261127-093406-8545")) {
            CliRun busy = CliRun.of(validate);
            assertThat(busy.code()).as(busy.err()).isEqualTo(3);
            assertThat(busy.err()).contains("another validate of " + cluster + " is running from this machine "
                    + "(validate run 20261127-093406-8545, pid " + h.process().pid() + ", since ")
                    .contains("railyard-validate-" + cluster + ".lock")
                    .doesNotContain("gpuserver1").doesNotContain("127.0.0.2");
            assertThat(tmp.resolve("report/index.html")).doesNotExist();
            ValidateLock.acquire(cluster + "-other", "20261127-093407-0001", dir).close();
        }
        ValidateLock.acquire(cluster, "20261127-093408-0002", dir).close();
    }
}

package dev.railyard.bench.perftest;

import dev.railyard.bench.RealSamples;
import dev.railyard.model.RailyardException;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PerftestRunnerTest {

    @TempDir
    Path dir;

    /** The homelab's mlx4_0 port 2: RoCE v1 and v2 GIDs for fe80:: and for 10.0.0.1, the v2 IPv4 one at index 2. */
    private static RdmaPort seedPort() {
        List<RdmaPort.Gid> gids = List.of(
                gid(0, "fe80:0000:0000:0000:268a:07ff:fe52:aab1", RdmaPort.GidType.ROCE_V1),
                gid(1, "fe80:0000:0000:0000:268a:07ff:fe52:aab1", RdmaPort.GidType.ROCE_V2),
                gid(2, "0000:0000:0000:0000:0000:ffff:0a00:0001", RdmaPort.GidType.ROCE_V2),
                gid(3, "0000:0000:0000:0000:0000:ffff:0a00:0001", RdmaPort.GidType.ROCE_V1));
        return port("Ethernet", gids);
    }

    private static RdmaPort.Gid gid(int i, String g, RdmaPort.GidType t) {
        return new RdmaPort.Gid(i, g, Reading.of(t), Reading.of("ens6d1"));
    }

    private static RdmaPort port(String linkLayer, List<RdmaPort.Gid> gids) {
        return new RdmaPort("mlx4_0", 2, Reading.absent("test"), Reading.absent("test"), Reading.absent("test"),
                Reading.of(linkLayer), Reading.absent("test"), Reading.absent("test"), gids, Map.of(), Map.of());
    }

    private static PerftestRunner.Plan plan(RdmaPort p, OptionalInt numa, boolean gbits, boolean bidir,
                                            Optional<String> server) {
        return new PerftestRunner.Plan(PerftestRunner.Tool.IB_WRITE_BW, p, numa, gbits, bidir, server,
                Duration.ofSeconds(20));
    }

    @Test
    void seedCommandsComeOutOfTheInventory() {
        PerftestRunner r = new PerftestRunner(CommandRunner.system(), Optional.empty());
        assertThat(r.argv(plan(seedPort(), OptionalInt.empty(), false, false, Optional.empty())))
                .containsExactly("ib_write_bw", "--ib-dev=mlx4_0", "--ib-port=2", "--gid-index=2");
        assertThat(r.argv(plan(seedPort(), OptionalInt.of(1), true, true, Optional.of("10.0.0.2"))))
                .containsExactly("numactl", "--cpunodebind=1", "--membind=1", "ib_write_bw", "--ib-dev=mlx4_0",
                        "--ib-port=2", "--gid-index=2", "--report_gbits", "-b", "10.0.0.2");
        PerftestRunner.Plan lat = new PerftestRunner.Plan(PerftestRunner.Tool.IB_WRITE_LAT, seedPort(),
                OptionalInt.empty(), true, true, Optional.of("10.0.0.2"), Duration.ofSeconds(5));
        assertThat(r.argv(lat)).containsExactly("ib_write_lat", "--ib-dev=mlx4_0", "--ib-port=2", "--gid-index=2",
                "10.0.0.2");
    }

    @Test
    void infinibandNeedsNoGidIndexAndRoceWithoutIpv4IsAUsageError() {
        PerftestRunner r = new PerftestRunner(CommandRunner.system(), Optional.empty());
        assertThat(r.argv(plan(port("InfiniBand", List.of()), OptionalInt.empty(), false, false, Optional.empty())))
                .containsExactly("ib_write_bw", "--ib-dev=mlx4_0", "--ib-port=2");
        RdmaPort noIpv4 = port("Ethernet", seedPort().gids().subList(0, 2));
        assertThatThrownBy(() -> r.argv(plan(noIpv4, OptionalInt.empty(), false, false, Optional.empty())))
                .isInstanceOf(RailyardException.Usage.class).hasMessageContaining("mlx4_0:2");
    }

    @Test
    void runsTheBinaryAndParsesWhatItPrints() throws Exception {
        Path table = dir.resolve("table.txt");
        Files.writeString(table, RealSamples.body("bench/perftest/seed-000-ib_write_bw-mlx4-40g.txt"));
        Path fake = dir.resolve("ib_write_bw");
        Files.writeString(fake, "#!/bin/sh\necho \"$@\" >&2\ncat " + table + "\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        PerftestRunner r = new PerftestRunner(CommandRunner.system(), Optional.of(dir));
        PerftestRunner.Run run = r.run(plan(seedPort(), OptionalInt.empty(), false, false, Optional.of("10.0.0.2")));
        assertThat(run.exitCode()).isZero();
        assertThat(run.timedOut()).isFalse();
        assertThat(run.argv().getFirst()).isEqualTo(fake.toString());
        assertThat(run.result().bandwidth()).singleElement()
                .satisfies(row -> assertThat(row.average()).isEqualTo(4554.89));
    }

    @Test
    void aMissingBinaryNamesThePackage() {
        PerftestRunner r = new PerftestRunner(CommandRunner.system(), Optional.of(dir.resolve("empty")));
        assertThatThrownBy(() -> r.run(plan(seedPort(), OptionalInt.empty(), false, false, Optional.empty())))
                .isInstanceOfSatisfying(RailyardException.MissingPrerequisite.class, e -> {
                    assertThat(e.exitCode()).isEqualTo(3);
                    assertThat(e.getMessage()).startsWith("ib_write_bw could not be started");
                    assertThat(e.hint()).contains("apt install perftest").contains("dnf install perftest");
                });
    }
}

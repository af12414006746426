package dev.railyard.collect;

import dev.railyard.model.Gpu;
import dev.railyard.model.Reading;
import dev.railyard.model.XidEvent;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Captured trees as they come from the field: a huge saved dmesg, an upper-case PCI directory. */
class ReaderEdgeCasesTest {

    @TempDir
    Path dir;

    @Test
    void aHundredMegabyteDmesgIsReadFromItsNewest32MiBSoAnXidAtItsEndIsJudged() throws Exception {
        Files.createDirectories(dir.resolve("railyard"));
        Path log = dir.resolve("railyard/dmesg.txt");
        try (BufferedWriter w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            String filler = "] mlx5_core 0000:1b:00.0: poll_health:800: device's health compromised - reached miss count\n";
            for (long i = 0; Files.size(log) < 100L << 20 && i < 2_000_000; i++) {
                w.write(String.format("[%5d.%06d", i / 1000, i % 1000 * 1000));
                w.write(filler);
            }
            w.write("[99999.000001] NVRM: Xid (PCI:0000:1b:00): 79, pid=0, GPU has fallen off the bus.\n");
        }
        assertThat(Files.size(log)).isGreaterThan(100L << 20);
        Reading<List<XidEvent>> xids = new KernelLogCollector().collect(HostRoot.at(dir));
        assertThat(xids.optional().orElseThrow()).singleElement().matches(e -> e.xid() == 79 && e.timestamp().equals("99999.000001"));
    }

    @Test
    void anUpperCasePciDirectoryDoesNotCountAGpuTwice() throws Exception {
        copy(Path.of("src/test/resources/trees/h200x4-capture"), dir);
        // the GPU at 00:06.0 captured as 00:0A.0, its directory in upper case as a hand-made or foreign tree has it
        Path devices = dir.resolve("sys/bus/pci/devices");
        Path link = Files.readSymbolicLink(devices.resolve("0000:00:06.0"));
        Files.delete(devices.resolve("0000:00:06.0"));
        Files.createSymbolicLink(devices.resolve("0000:00:0A.0"), link);
        Path xml = dir.resolve("railyard/nvidia-smi-q.xml");
        Files.writeString(xml, Files.readString(xml).replace("00000000:00:06.0", "00000000:00:0A.0"));
        HostRoot root = HostRoot.at(dir);
        List<Gpu> gpus = new InventoryCollector(GpuCollector.forRoot(root), Clock.system()).collect(root).gpu().gpus();
        assertThat(gpus).extracting(Gpu::pciAddress).containsExactlyInAnyOrder("0000:00:0a.0", "0000:00:07.0",
                "0000:00:08.0", "0000:00:09.0");
    }

    private static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isSymbolicLink(p)) Files.createSymbolicLink(t, Files.readSymbolicLink(p));
                else if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}

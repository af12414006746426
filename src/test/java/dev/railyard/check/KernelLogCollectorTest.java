package dev.railyard.check;

import dev.railyard.collect.KernelLogCollector;
import dev.railyard.model.Reading;
import dev.railyard.model.XidEvent;
import dev.railyard.platform.CommandRunner;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The Xid parser on real dmesg captures (gpud testdata, ml-engineering, NVSentinel #155), 2 header lines stripped. */
class KernelLogCollectorTest {

    private static List<String> sample(String name) throws IOException {
        List<String> all = Files.readAllLines(Path.of("src/test/resources/check/xid", name));
        return all.subList(2, all.size());
    }

    private static Map<Integer, Long> countByCode(List<XidEvent> events) {
        return events.stream().collect(Collectors.groupingBy(XidEvent::xid, Collectors.counting()));
    }

    @Test
    void decodeIsoFormatHas629Xid13And7Xid43() throws IOException {
        List<XidEvent> events = KernelLogCollector.parse(sample("xid-dmesg-gpud-xid13-43-decode-iso.txt"));
        assertThat(countByCode(events)).containsExactlyInAnyOrderEntriesOf(Map.of(13, 629L, 43, 7L));
        XidEvent first = events.getFirst();
        assertThat(first.pciAddress()).isEqualTo("0000:38:00");
        assertThat(first.timestamp()).isEqualTo("2025-01-21T02:21:33,498559+00:00");
        assertThat(first.message()).isEqualTo("Graphics SM Warp Exception on (GPC 8, TPC 5, SM 0): Out Of Range Address");
    }

    @Test
    void isoFormatWithPeermemNoiseHasDbeRowRemapAndContained() throws IOException {
        List<XidEvent> events = KernelLogCollector.parse(sample("xid-dmesg-gpud-xid48-63-94-iso.txt"));
        assertThat(countByCode(events)).containsExactlyInAnyOrderEntriesOf(Map.of(48, 1L, 63, 1L, 94, 9L));
        assertThat(events.getFirst().message()).startsWith("An uncorrectable double bit error (DBE) has been detected");
        assertThat(events.get(3).message()).isEqualTo("Ch 00000008"); // pid=1248209, name=python3.10 stripped
    }

    @Test
    void dmesgTFormatXid119() throws IOException {
        List<XidEvent> events = KernelLogCollector.parse(sample("xid-dmesg-gpud-xid119-gsp-timeout.txt"));
        assertThat(countByCode(events)).containsExactlyInAnyOrderEntriesOf(Map.of(119, 5L));
        assertThat(events.getFirst().timestamp()).isEqualTo("Sun Feb 23 16:24:18 2025");
        assertThat(events.getFirst().pciAddress()).isEqualTo("0000:9b:00");
        assertThat(events.getFirst().message()).startsWith("Timeout after 6s of waiting for RPC response from GPU4 GSP!");
    }

    @Test
    void fallenOffTheBusWithoutAnXidLineCountsAs79() throws IOException {
        List<XidEvent> events = KernelLogCollector.parse(sample("issue-nvsentinel-155-fallen-off-bus-multiline-and-xid79.txt"));
        assertThat(events).extracting(XidEvent::xid, XidEvent::pciAddress)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(79, "0000:b3:00"), org.assertj.core.groups.Tuple.tuple(79, "0000:44:00"));
        assertThat(events.getFirst().timestamp()).isEqualTo("1843.308145");
    }

    @Test
    void rowRemapXid63MatchesTheNvidiaSmiAddressOfItsGpu() throws IOException {
        List<XidEvent> events = KernelLogCollector.parse(sample("ml-engineering-xid63-and-nvidia-smi-q-ecc-remap-excerpt.txt"));
        assertThat(events).hasSize(1);
        assertThat(events.getFirst().xid()).isEqualTo(63);
        assertThat(events.getFirst().concerns("00000000:10:1C.0")).isTrue();
        assertThat(events.getFirst().concerns("00000000:10:1D.0")).isFalse();
    }

    @Test
    void capturedRootReadsRailyardDmesgTxtAndSaysWhenItIsMissing(@TempDir Path dir) throws IOException {
        assertThat(new KernelLogCollector().collect(HostRoot.at(dir))).isInstanceOf(Reading.Absent.class);
        Files.createDirectories(dir.resolve("railyard"));
        Files.write(dir.resolve("railyard/dmesg.txt"), sample("xid-dmesg-gpud-xid48-63-94-iso.txt"));
        assertThat(new KernelLogCollector().collect(HostRoot.at(dir)).orElse(List.of())).hasSize(11);
    }

    @Test
    void liveRootRunsDmesgAndReportsARestrictedKernelLog() {
        CommandRunner denied = (argv, timeout, wd, env) -> new CommandRunner.Result(argv, 1, "",
                "dmesg: read kernel buffer failed: Operation not permitted", false, "");
        Reading<List<XidEvent>> r = new KernelLogCollector(denied).collect(HostRoot.live());
        assertThat(r).isInstanceOf(Reading.Failed.class);
        assertThat(r.describe()).contains("dmesg_restrict");
        CommandRunner ok = (argv, timeout, wd, env) -> new CommandRunner.Result(argv, 0,
                "[ 12.5] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, name=x, GPU has fallen off the bus.\n", "", false, "");
        assertThat(new KernelLogCollector(ok).collect(HostRoot.live()).orElse(List.of())).extracting(XidEvent::xid).containsExactly(79);
    }

    @Test
    void truncatedAndGarbledSamplesParseOrSkipNeverThrow() throws IOException {
        Random random = new Random(42);
        for (String name : List.of("xid-dmesg-gpud-xid13-43-decode-iso.txt", "xid-dmesg-gpud-xid48-63-94-iso.txt",
                "xid-dmesg-gpud-xid119-gsp-timeout.txt", "issue-nvsentinel-155-fallen-off-bus-multiline-and-xid79.txt")) {
            String text = String.join("\n", sample(name));
            for (int i = 0; i < 200; i++) {
                char[] c = text.substring(0, random.nextInt(text.length() + 1)).toCharArray();
                for (int k = 0; k < 5 && c.length > 0; k++) c[random.nextInt(c.length)] = (char) random.nextInt(128);
                List<XidEvent> events = KernelLogCollector.parse(new String(c).lines().toList());
                assertThat(events).allSatisfy(e -> assertThat(e.xid()).isNotNegative());
            }
        }
    }
}

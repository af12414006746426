package dev.railyard.collect;

import dev.railyard.check.CheckTrees;
import dev.railyard.model.Finding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CaptureRedactionTest {

    private static void write(Path root, String relative, String text) throws IOException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private static String read(Path root, String relative) throws IOException {
        return Files.readString(root.resolve(relative));
    }

    @Test
    void everyIdentifyingValueIsReplacedTheSameWayEverywhere(@TempDir Path root) throws IOException {
        write(root, "proc/sys/kernel/hostname", "gpuserver1\n");
        write(root, "railyard/ip-address.json", "[{\"ifname\":\"ens6d1\",\"address\":\"24:8a:07:52:aa:b1\",\"addr_info\":"
                + "[{\"family\":\"inet\",\"local\":\"10.0.0.1\",\"prefixlen\":24,\"broadcast\":\"10.0.0.255\"},"
                + "{\"family\":\"inet6\",\"local\":\"fe80::268a:7ff:fe52:aab1\",\"prefixlen\":64}]}]");
        write(root, "sys/class/infiniband/mlx4_0/ports/2/gids/2", "0000:0000:0000:0000:0000:ffff:0a00:0001\n");
        write(root, "sys/class/infiniband/mlx4_0/ports/2/gids/0", "fe80:0000:0000:0000:268a:07ff:fe52:aab1\n");
        write(root, "sys/class/infiniband/mlx4_0/node_guid", "248a:0703:0052:aab0\n");
        write(root, "sys/class/net/ens6d1/address", "24:8a:07:52:aa:b1\n");
        write(root, "sys/class/net/ib0/address", "80:00:02:08:fe:80:00:00:00:00:00:00:24:8a:07:03:00:52:aa:b1\n");
        write(root, "sys/class/nvme/nvme0/serial", "S4EWNX0R123456\n");
        write(root, "railyard/nvidia-smi-q.xml", "<gpu><serial>1654922012345</serial><uuid>GPU-5fc4a8f5-7a3c-2b2f-8e6e-3a2b1c0d9e8f</uuid></gpu>");
        write(root, "railyard/nvml.json", "{\"uuid\" : {\"state\" : \"present\", \"value\" : \"GPU-5fc4a8f5-7a3c-2b2f-8e6e-3a2b1c0d9e8f\"}}");
        write(root, "railyard/dmesg.txt", "[ 1.0] gpuserver1 kernel: mlx4_en: ens6d1: Link Up 10.0.0.1 peer 10.0.0.2 "
                + "gpuservers 127.0.0.1 255.255.255.0 driver 535.183.01 nvml 12.535.183.01\n");

        int n = CaptureRedaction.redact(root);

        assertThat(n).isGreaterThan(10);
        assertThat(read(root, "proc/sys/kernel/hostname")).isEqualTo("redacted-node\n");
        String dmesg = read(root, "railyard/dmesg.txt");
        assertThat(dmesg).contains("redacted-node kernel").contains("gpuservers").as("whole names only")
                .contains("Link Up 198.18.0.1 peer 198.18.0.2").as("one /24 stays one /24")
                .contains("127.0.0.1 255.255.255.0").contains("535.183.01 nvml 12.535.183.01").as("versions are no addresses");
        String ip = read(root, "railyard/ip-address.json");
        assertThat(ip).contains("\"local\":\"198.18.0.1\"").contains("\"broadcast\":\"198.18.0.255\"")
                .doesNotContain("24:8a:07").doesNotContain("268a").contains("fe80::200:0:0:");
        assertThat(read(root, "sys/class/infiniband/mlx4_0/ports/2/gids/2"))
                .as("the RoCE v2 GID follows its address").isEqualTo("0000:0000:0000:0000:0000:ffff:c612:0001\n");
        String mac = read(root, "sys/class/net/ens6d1/address").strip();
        assertThat(mac).startsWith("02:00:00:00:");
        assertThat(ip).as("the same MAC, the same stand-in").contains("\"address\":\"" + mac + "\"");
        assertThat(read(root, "sys/class/infiniband/mlx4_0/ports/2/gids/0")).startsWith("fe80:0000:0000:0000:0200:0000:0000:");
        assertThat(read(root, "sys/class/infiniband/mlx4_0/node_guid")).startsWith("0200:0000:0000:");
        assertThat(read(root, "sys/class/net/ib0/address")).startsWith("80:00:02:08:fe:80:").doesNotContain("24:8a");
        assertThat(read(root, "sys/class/nvme/nvme0/serial")).matches("REDACTED-\\d+\n");
        String xml = read(root, "railyard/nvidia-smi-q.xml");
        assertThat(xml).doesNotContain("1654922012345").doesNotContain("5fc4a8f5");
        String uuid = xml.substring(xml.indexOf("<uuid>") + 6, xml.indexOf("</uuid>"));
        assertThat(read(root, "railyard/nvml.json")).as("the GPU's UUID matches across files").contains(uuid);
    }

    @Test
    void aRedactedTreeJudgesTheSameAsTheOriginal(@TempDir Path dir) throws IOException {
        Path root = CheckTrees.seed000(dir);
        write(root, "railyard/ip-address.json", "[{\"ifindex\":4,\"ifname\":\"ens6d1\",\"addr_info\":[{\"family\":"
                + "\"inet\",\"local\":\"10.0.0.1\",\"prefixlen\":24}]}]");
        List<Finding> before = CheckTrees.check(root);
        CaptureRedaction.redact(root);
        List<Finding> after = CheckTrees.check(root);
        assertThat(after).extracting(Finding::id, Finding::subject, Finding::severity)
                .containsExactlyElementsOf(before.stream().map(f -> org.assertj.core.groups.Tuple.tuple(f.id(), f.subject(), f.severity())).toList());
        Finding gid = after.stream().filter(f -> f.id().equals("rdma.roce.gid")).findFirst().orElseThrow();
        assertThat(gid.observed()).startsWith("GID index 2 = RoCE v2");
        assertThat(gid.expected()).isEqualTo("RoCE v2 GID ::ffff:198.18.0.1");
    }
}

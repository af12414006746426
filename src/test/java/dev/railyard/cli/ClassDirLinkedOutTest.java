package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real 4 x H200 capture with sys/class/net replaced by a link to the host's /sys/class/net, as a tree packed by
 * hand or a chroot's bind mount leaves it: the spec's netdevs are UNKNOWN with the reason, never FAIL "no such
 * interface", and nothing of this machine's own interfaces is read.
 */
class ClassDirLinkedOutTest {

    @TempDir
    Path dir;

    private Path capture() throws Exception {
        Path from = Path.of("src/test/resources/trees/h200x4-capture");
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path to = dir.resolve(from.relativize(p).toString());
                if (Files.isSymbolicLink(p)) Files.createSymbolicLink(to, Files.readSymbolicLink(p));
                else if (Files.isDirectory(p)) Files.createDirectories(to);
                else Files.copy(p, to, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        return dir;
    }

    private static List<JsonNode> findings(CliRun r, String id) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).path("findings").forEach(f -> {
            if (f.path("id").asText().equals(id)) out.add(f);
        });
        return out;
    }

    @Test
    void aSpecdNetdevUnderAClassDirLinkedOutOfTheRootIsUnknownWithTheReason() throws Exception {
        Path root = capture();
        Path net = root.resolve("sys/class/net");
        try (Stream<Path> s = Files.list(net)) {
            for (Path p : s.toList()) Files.delete(p);
        }
        Files.delete(net);
        Files.createSymbolicLink(net, Path.of("/sys/class/net"));

        CliRun r = CliRun.on(Main.commandLine(), "check", "--root", root.toString(), "--spec",
                "examples/s1-homelab-v100-roce.yaml", "--node", "gpuserver1", "--format", "json", "--only", "rdma.netdev.address");
        List<JsonNode> netdevs = findings(r, "rdma.netdev.address");
        assertThat(netdevs).as(r.out() + r.err()).extracting(f -> f.path("subject").asText()).contains("ens6", "ens6d1");
        for (JsonNode f : netdevs) {
            assertThat(f.path("severity").asText()).as(f.toString()).isEqualTo("UNKNOWN");
            assertThat(f.path("observed").asText()).as(f.toString())
                    .contains("sys/class/net").contains("symlink points outside the root").doesNotContain("no such interface");
        }
    }

    @Test
    void theSameTreeWithItsOwnClassDirStillSaysTheNetdevIsMissing() throws Exception {
        Path root = capture();
        CliRun r = CliRun.on(Main.commandLine(), "check", "--root", root.toString(), "--spec",
                "examples/s1-homelab-v100-roce.yaml", "--node", "gpuserver1", "--format", "json", "--only", "rdma.netdev.address");
        List<JsonNode> netdevs = findings(r, "rdma.netdev.address");
        assertThat(netdevs).as(r.out() + r.err()).isNotEmpty()
                .allMatch(f -> f.path("severity").asText().equals("FAIL") && f.path("observed").asText().contains("no such interface"));
    }
}

package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.report.InventoryTextTrees;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * gpud's real H100 sys/class/infiniband, judged against the S4 spec (compute01 binds mlx5_0:1), with the class
 * directory replaced by a link to a copy of it outside the root: the spec'd port is UNKNOWN with the reason, never FAIL
 * "no RDMA device", the inventory JSON says what could not be listed, and nothing outside the root is read.
 */
class RdmaClassDirLinkedOutTest {

    @TempDir
    Path dir;
    @TempDir
    Path outside;

    private Path linkedOut() throws Exception {
        Path root = InventoryTextTrees.gpudH100(dir);
        Path ib = root.resolve("sys/class/infiniband");
        Files.move(ib, outside.resolve("infiniband"));
        Files.createSymbolicLink(ib, outside.resolve("infiniband"));
        return root;
    }

    private static List<JsonNode> findings(CliRun r, String id, String subject) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).path("findings").forEach(f -> {
            if (f.path("id").asText().equals(id) && f.path("subject").asText().equals(subject)) out.add(f);
        });
        return out;
    }

    private static CliRun check(Path root) {
        return CliRun.on(Main.commandLine(), "check", "--root", root.toString(), "--spec", "examples/s4-h100-hdr.yaml",
                "--node", "compute01", "--format", "json", "--only", "rdma.port.state");
    }

    @Test
    void aSpecdPortUnderAClassDirLinkedOutOfTheRootIsUnknownWithTheReason() throws Exception {
        CliRun r = check(linkedOut());
        List<JsonNode> port = findings(r, "rdma.port.state", "mlx5_0:1");
        assertThat(port).as(r.out() + r.err()).hasSize(1);
        assertThat(port.getFirst().path("severity").asText()).as(port.toString()).isEqualTo("UNKNOWN");
        assertThat(port.getFirst().path("observed").asText()).as(port.toString())
                .contains("sys/class/infiniband").contains("symlink points outside the root")
                .doesNotContain("no RDMA device");
    }

    @Test
    void theInventoryJsonSaysTheClassDirCouldNotBeListed() throws Exception {
        CliRun r = CliRun.on(Main.commandLine(), "inventory", "--root", linkedOut().toString(), "--format", "json");
        JsonNode inv = new ObjectMapper().readTree(r.out());
        assertThat(inv.path("rdmaDevices").size()).as(r.out()).isZero();
        JsonNode unlisted = inv.path("unlisted");
        assertThat(unlisted.size()).as(unlisted.toString()).isEqualTo(1);
        assertThat(unlisted.get(0).path("subsystem").asText()).isEqualTo("INFINIBAND");
        assertThat(unlisted.get(0).path("path").asText()).isEqualTo("sys/class/infiniband");
        assertThat(unlisted.get(0).path("cause").asText()).contains("symlink points outside the root");
    }

    @Test
    void theSameTreeWithItsOwnClassDirJudgesThePortItself() throws Exception {
        CliRun r = check(InventoryTextTrees.gpudH100(dir));
        List<JsonNode> port = findings(r, "rdma.port.state", "mlx5_0:1");
        assertThat(port).as(r.out() + r.err()).hasSize(1);
        assertThat(port.getFirst().path("severity").asText()).as(port.toString()).isNotEqualTo("UNKNOWN");
        assertThat(port.getFirst().path("observed").asText()).doesNotContain("could not be listed");
    }
}

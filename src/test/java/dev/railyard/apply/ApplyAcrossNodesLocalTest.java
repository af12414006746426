package dev.railyard.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * railyard apply --nodes through the local launcher: every node is a child railyard on this machine, each with its
 * own scratch root (--root DIR/{node}). The coordinator must show what each node's own apply shows, write and back
 * up on every node, undo on every node, and name a node whose apply failed with its exit code.
 */
class ApplyAcrossNodesLocalTest {

    private static final String S4 = "examples/s4-h100-hdr.yaml";
    private static final List<String> NODES = List.of("compute01", "compute02", "compute03");

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    private static CliRun onNodes(Path dir, String... more) {
        List<String> args = new ArrayList<>(List.of("apply", "--spec", S4, "--nodes", String.join(",", NODES),
                "--launcher", "local", "--root", dir + "/{node}"));
        args.addAll(List.of(more));
        return run(args.toArray(String[]::new));
    }

    private static void roots(Path dir) throws IOException {
        for (String n : NODES) {
            Files.createDirectories(dir.resolve(n).resolve("etc"));
            Files.writeString(dir.resolve(n).resolve("etc/hosts"), "127.0.0.1 localhost\n10.0.1.99 " + n + "-old\n");
        }
    }

    /** The text under "== NODE: ..." up to the next node or the summary. */
    private static String section(String out, String node) {
        int start = out.indexOf("== " + node + ": ");
        assertThat(start).as("a section for " + node + " in\n" + out).isNotNegative();
        int body = out.indexOf('\n', start) + 1;
        int next = out.indexOf("\n== ", body);
        int summary = out.indexOf("\n\napply (", body);
        int end = next >= 0 && next < summary ? next + 1 : summary + 1;
        return out.substring(body, end);
    }

    @Test
    void dryRunShowsEachNodesOwnDiffAndWritesNothing(@TempDir Path dir) throws IOException {
        roots(dir);
        Map<String, String> before = TreeSnapshot.of(dir);
        CliRun r = onNodes(dir);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        for (String n : NODES) {
            assertThat(r.out()).contains("== " + n + ": COMPLETED\n");
            CliRun own = run("apply", "--spec", S4, "--node", n, "--root", dir.resolve(n).toString());
            // the rendered files name the spec file in their header: the same through the launcher as here
            assertThat(section(r.out(), n)).isEqualTo(own.out());
        }
        assertThat(r.out()).contains("apply (dry-run) through the local launcher: 3 of 3 node(s) done, 48 file(s) would change\n");
        assertThat(TreeSnapshot.of(dir)).isEqualTo(before);
    }

    @Test
    void applyBacksUpOnEveryNodeAndUndoRestoresEveryNode(@TempDir Path dir) throws IOException {
        roots(dir);
        Map<String, String> before = TreeSnapshot.of(dir);
        CliRun applied = onNodes(dir, "--apply", "--format", "json");
        assertThat(applied.code()).as(applied.out() + applied.err()).isZero();
        JsonNode doc = new ObjectMapper().readTree(applied.out());
        assertThat(doc.get("schemaVersion").asInt()).isEqualTo(1);
        assertThat(doc.get("mode").asText()).isEqualTo("APPLY");
        assertThat(doc.get("summary").get("COMPLETED").asInt()).isEqualTo(3);
        assertThat(doc.get("summary").get("UNREACHABLE").asInt()).isZero();
        for (int i = 0; i < NODES.size(); i++) {
            String n = NODES.get(i);
            JsonNode node = doc.get("nodes").get(i);
            assertThat(node.get("node").asText()).isEqualTo(n);
            assertThat(node.get("result").get("changed").asInt()).isEqualTo(16);
            Path backup = Path.of(node.get("result").get("backup").asText());
            assertThat(backup).startsWith(dir.resolve(n).resolve("var/backups/railyard"));
            assertThat(Files.readString(backup.resolve("etc/hosts"))).contains(n + "-old");
            assertThat(Files.readString(dir.resolve(n).resolve("etc/hosts"))).contains("10.0.2.18\tcompute08-ib-hdr")
                    .contains("\n10.0.1.99 " + n + "-old\n").contains(dev.railyard.render.ManagedBlock.END).doesNotContain("\n127.0.1.1");
            // never anything that touches GPUs or networking on a scratch root: printed as next steps only
            for (JsonNode f : node.get("result").get("followUps")) {
                assertThat(f.get("outcome").asText()).isEqualTo("NEXT_STEP");
                assertThat(f.get("argv").toString()).doesNotContain("nvidia-smi");
            }
        }

        CliRun again = onNodes(dir);
        assertThat(again.out()).contains("3 of 3 node(s) done, 0 file(s) would change\n");

        CliRun undo = onNodes(dir, "--undo");
        assertThat(undo.code()).as(undo.out() + undo.err()).isZero();
        for (String n : NODES) assertThat(section(undo.out(), n)).contains("restored 1 file(s), removed 15 created file(s)");
        Map<String, String> after = TreeSnapshot.of(dir);
        after.keySet().removeIf(p -> p.contains("var/backups/railyard"));
        assertThat(after).isEqualTo(before);
    }

    @Test
    void aNodeWhoseApplyFailsIsNamedWithItsCode(@TempDir Path dir) throws IOException {
        roots(dir);
        Files.setPosixFilePermissions(dir.resolve("compute02/etc/hosts"), PosixFilePermissions.fromString("r--r--r--"));
        CliRun r = onNodes(dir, "--apply");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.out()).contains("== compute02: FAILED: apply exited 2: railyard: /etc/hosts is read-only (mode 0444)")
                .contains("== compute01: COMPLETED").contains("== compute03: COMPLETED")
                .contains("2 of 3 node(s) done").contains("; failed: compute02\n")
                .contains("undo on these nodes: railyard apply --spec " + S4 + " --nodes compute01,compute03 --launcher local --undo --root " + dir + "/{node}");
        assertThat(dir.resolve("compute02/var")).doesNotExist();
    }

    @Test
    void usageMistakesAcrossNodesAreOneLine() {
        CliRun both = run("apply", "--spec", S4, "--node", "compute01", "--nodes", "all");
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("--node names this node; across nodes use --nodes");
        CliRun unknown = run("apply", "--spec", S4, "--nodes", "compute01,nosuch", "--launcher", "local");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("node nosuch is not in the spec");
        CliRun noSpec = run("apply", "--nodes", "all", "--undo");
        assertThat(noSpec.code()).isEqualTo(2);
        assertThat(noSpec.err()).contains("--nodes needs --spec");
    }
}

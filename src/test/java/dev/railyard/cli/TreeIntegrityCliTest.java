package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.check.CheckTrees;
import dev.railyard.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Reading a hostile node tree through Main: a tree holding a FIFO, a link out of the root, a garbled counter and terminal escapes gives
 * `inventory` and `check` their normal exits and output, never a hang, a stack trace or raw escapes.
 */
class TreeIntegrityCliTest {

    /** Generous: what is tested is a command that never returns. */
    private static final Duration HANG = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {}

    private static Run railyard(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return new Run(cl.execute(args), out.toString(), err.toString());
    }

    private Path hostileTree() throws Exception {
        Path root = CheckTrees.h100(dir);
        String port = "sys/class/infiniband/mlx5_1/ports/1";
        Files.delete(root.resolve(port + "/state"));
        Process mk = new ProcessBuilder(List.of("mkfifo", root.resolve(port + "/state").toString())).start();
        assertThat(mk.waitFor()).isZero();
        Files.createDirectories(root.resolve("proc/sys/net/core"));
        Files.createSymbolicLink(root.resolve("proc/sys/net/core/rmem_max"), Path.of("/proc/sys/net/core/rmem_max"));
        CheckTrees.write(root, "sys/class/infiniband/mlx5_4/ports/1/counters/symbol_error", "N/A\n");
        CheckTrees.write(root, "sys/class/infiniband/mlx5_3/fw_ver", "28.39\u001b[2J\u001b[31m\n");
        return root;
    }

    @Test
    void checkOnAHostileTreeFinishesWithUnknownsAndNoRawEscapes() throws Exception {
        Path root = hostileTree();
        Run r = assertTimeoutPreemptively(HANG, () -> railyard("check", "--root", root.toString(), "--node", "gpuserver1"));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
        // the observation wraps within the width; the path is one word and stays whole
        assertThat(r.out()).doesNotContain("\u001b").contains("(proc/sys/net/core/rmem_max:");
        Run json = assertTimeoutPreemptively(HANG, () -> railyard("check", "--root", root.toString(), "--node", "gpuserver1",
                "--format", "json"));
        assertThat(json.code()).as(json.err()).isEqualTo(ExitCodes.OK);
        String observed = Json.mapper().readTree(json.out()).findValuesAsText("observed").toString();
        assertThat(observed).contains("failed (sys/class/infiniband/mlx5_1/ports/1/state: not a regular file (a FIFO")
                .contains("proc/sys/net/core/rmem_max: symlink points outside the root: -> /proc/sys/net/core/rmem_max")
                .contains("could not read 1: symbol_error (not a counter: \"N/A\")");
    }

    @Test
    void inventoryJsonOnAHostileTreeIsValidJson() throws Exception {
        Path root = hostileTree();
        Run r = assertTimeoutPreemptively(HANG, () -> railyard("inventory", "--root", root.toString(), "--format", "json"));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        JsonNode inv = Json.mapper().readTree(r.out());
        assertThat(inv.at("/host/rmemMax/path").asText()).isEqualTo("proc/sys/net/core/rmem_max");
        Run text = assertTimeoutPreemptively(HANG, () -> railyard("inventory", "--root", root.toString()));
        assertThat(text.out()).doesNotContain("\u001b").contains("28.39\\e[2J\\e[31m");
    }
}

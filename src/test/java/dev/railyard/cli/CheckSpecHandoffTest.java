package dev.railyard.cli;

import dev.railyard.check.CheckTrees;
import dev.railyard.spec.SpecHandoff;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** check --spec-base64 (how validate hands a node its spec) judges exactly as check --spec FILE does. */
class CheckSpecHandoffTest {

    private record Run(int code, String out, String err) {}

    private static Run railyard(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return new Run(cl.execute(args), out.toString(), err.toString());
    }

    @Test
    void theInlineSpecGivesTheSameFindingsAsTheFile(@TempDir Path dir) throws Exception {
        Path root = CheckTrees.seed000(dir);
        Path spec = Path.of("examples", "s1-homelab-v100-roce.yaml");
        Run file = railyard("check", "--root", root.toString(), "--node", "gpuserver1", "--spec", spec.toString(), "--format", "json");
        String data = SpecHandoff.encode(Files.readString(spec));
        assertThat(data).matches("[A-Za-z0-9_-]+").hasSizeLessThan(Files.readString(spec).length());
        Run inline = railyard("check", "--root", root.toString(), "--node", "gpuserver1", "--spec-base64", data, "--format", "json");
        assertThat(inline.code()).isEqualTo(file.code());
        assertThat(inline.out()).isEqualTo(file.out()).contains("10.0.0.1");
    }

    @Test
    void garbageIsAUsageError() {
        Run r = railyard("check", "--spec-base64", "not*base64");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--spec-base64");
    }
}

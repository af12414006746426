package dev.railyard.cli;

import dev.railyard.model.ClusterSpec;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** railyard init end to end on a small captured tree: stdout, --out, and refusing to overwrite. */
class InitCommandTest {

    @TempDir
    Path dir;

    record Run(int code, String out, String err) {}

    Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    Path tree() throws Exception {
        Path root = Files.createDirectories(dir.resolve("node"));
        Files.createDirectories(root.resolve("proc/sys/kernel"));
        Files.writeString(root.resolve("proc/sys/kernel/hostname"), "gpuserver1\n");
        return root;
    }

    @Test
    void printsAStarterThatReadsBack() throws Exception {
        Run r = run("init", "--root", tree().toString(), "--name", "homelab-v100");
        assertThat(r.code()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).startsWith("# Railyard cluster spec").contains("# TODO: add the other nodes");
        ClusterSpec spec = new SpecReader().read("stdout", r.out());
        assertThat(spec.cluster()).isEqualTo("homelab-v100");
        assertThat(spec.nodes()).extracting(ClusterSpec.Node::name).containsExactly("gpuserver1");
    }

    @Test
    void writesToOutAndRefusesToOverwriteWithoutForce() throws Exception {
        Path root = tree();
        Path file = dir.resolve("cluster.yaml");
        Run first = run("init", "--root", root.toString(), "--out", file.toString());
        assertThat(first.code()).isEqualTo(ExitCodes.OK);
        assertThat(first.out()).startsWith("wrote " + file);
        assertThat(new SpecReader().read(file).nodes()).hasSize(1);

        Files.writeString(file, "cluster: mine\n");
        Run second = run("init", "--root", root.toString(), "--out", file.toString());
        assertThat(second.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(second.err()).contains("railyard: " + file + " already exists; not overwriting it",
                "hint: add --force to replace it");
        assertThat(Files.readString(file)).isEqualTo("cluster: mine\n");

        Run forced = run("init", "--root", root.toString(), "--out", file.toString(), "--force");
        assertThat(forced.code()).isEqualTo(ExitCodes.OK);
        assertThat(Files.readString(file)).startsWith("# Railyard cluster spec");
    }

    @Test
    void aRootThatIsNotADirectoryIsAUsageError() {
        Run r = run("init", "--root", dir.resolve("missing").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("is not a directory");
    }
}

package dev.railyard.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.cli.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * railyard validate --launcher ssh end to end on four namespace hosts with their own sshd, every data link capped at
 * 400 Mbit/s: with one link shaped to a quarter of that, validate names that link and only it (exit 1); unshaped it
 * exits 0; with one host's sshd stopped, that host is unreachable and the others complete.
 */
@Tag("tools")
class ValidateOverSshTest {

    static TestCluster cluster;
    static Bundle bundle;

    @TempDir
    Path dir;

    record Run(int code, String out, String err, JsonNode report) {}

    @BeforeAll
    static void up() {
        Assumptions.assumeTrue(Main.commandLine().getSubcommands().containsKey("validate"),
                "railyard validate is not in this build yet");
        cluster = TestCluster.up("valid", 4, "--rate", "400mbit");
        bundle = TestBundle.build();
    }

    @AfterAll
    static void down() {
        if (cluster != null) cluster.close();
    }

    private Run validate(String name) throws Exception {
        Path out = dir.resolve(name);
        StringWriter stdout = new StringWriter();
        StringWriter stderr = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(stdout));
        cl.setErr(new PrintWriter(stderr));
        int code = cl.execute("validate", "--spec", cluster.dir().resolve("cluster.yaml").toString(),
                "--launcher", "ssh", "--bundle", bundle.tarball().toString(), "--no-history",
                "--out", out.toString(), "--step-timeout", "2m");
        JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
        return new Run(code, stdout.toString(), stderr.toString(), report);
    }

    private static List<String> culprits(JsonNode report) {
        List<String> all = new ArrayList<>();
        report.get("culprits").forEach(c -> {
            List<String> nodes = new ArrayList<>();
            c.get("nodes").forEach(n -> nodes.add(n.asText()));
            all.add(c.get("kind").asText() + " " + String.join("<->", nodes) + " on " + c.get("network").asText()
                    + " " + c.get("severity").asText());
        });
        return all;
    }

    @Test
    void linkShapedToAQuarterIsTheOnlyCulprit() throws Exception {
        cluster.verb("shape", "h1", "h2", "100mbit");
        try {
            Run r = validate("shaped");
            assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
            assertThat(culprits(r.report())).containsExactly("LINK h1<->h2 on data FAIL");
            assertThat(r.report().get("nodes")).allSatisfy(n ->
                    assertThat(n.get("status").asText()).isEqualTo("COMPLETED"));
        } finally {
            cluster.verb("shape", "h1", "h2", "400mbit");
        }
    }

    @Test
    void unshapedClusterPasses() throws Exception {
        Run r = validate("unshaped");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(culprits(r.report())).isEmpty();
        assertThat(r.report().get("pairs").size()).as("every pair of 4 nodes on the data network").isEqualTo(6);
    }

    @Test
    void hostWithSshdStoppedIsUnreachableAndTheRestComplete() throws Exception {
        cluster.verb("stop-sshd", "h3");
        try {
            Run r = validate("h3-down");
            List<String> statuses = new ArrayList<>();
            r.report().get("nodes").forEach(n -> statuses.add(n.get("node").asText() + " "
                    + n.get("status").asText()));
            assertThat(statuses).containsExactly("h1 COMPLETED", "h2 COMPLETED", "h3 UNREACHABLE", "h4 COMPLETED");
            assertThat(r.report().get("nodes").get(2).get("detail").asText())
                    .contains("ssh: connect to host " + cluster.node("h3").address() + " port 22: Connection refused");
            assertThat(r.out()).contains("h3    UNREACHABLE").contains("not proven: h3 unreachable");
            assertThat(r.code()).as("an unproven node is not a pass for scripts either").isEqualTo(3);
        } finally {
            cluster.verb("start-sshd", "h3");
        }
    }
}

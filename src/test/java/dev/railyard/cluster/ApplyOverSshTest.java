package dev.railyard.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.apply.TreeSnapshot;
import dev.railyard.cli.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * railyard apply --launcher ssh on three namespace hosts with their own sshd: the bundle is copied to each host,
 * each host applies under its own scratch root (DIR/roots/{node}), the coordinator shows each host's diff, writes
 * with a backup on each host and undoes on each host; with one host's sshd stopped, that host is named unreachable
 * (exit 3) and the others are done.
 */
@Tag("tools")
class ApplyOverSshTest {

    static TestCluster cluster;
    static Bundle bundle;
    static final List<String> HOSTS = List.of("h1", "h2", "h3");

    record Run(int code, String out, String err) {}

    @BeforeAll
    static void up() {
        cluster = TestCluster.up("apply", HOSTS.size());
        bundle = TestBundle.build();
    }

    @AfterAll
    static void down() {
        if (cluster != null) cluster.close();
    }

    private static Path roots() {
        return cluster.dir().resolve("roots");
    }

    @BeforeEach
    void freshRoots() throws IOException {
        if (Files.exists(roots())) {
            try (Stream<Path> all = Files.walk(roots())) {
                for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
            }
        }
        for (String h : HOSTS) {
            Path etc = Files.createDirectories(roots().resolve(h).resolve("etc"));
            Files.writeString(etc.resolve("hosts"), "127.0.0.1 localhost\n10.78.0.99 " + h + "-old\n");
        }
    }

    private static Run apply(String... more) {
        List<String> args = new ArrayList<>(List.of("apply", "--spec", cluster.dir().resolve("cluster.yaml").toString(),
                "--nodes", "all", "--launcher", "ssh", "--bundle", bundle.tarball().toString(), "--step-timeout", "2m",
                "--root", roots() + "/{node}"));
        args.addAll(List.of(more));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return new Run(cl.execute(args.toArray(String[]::new)), out.toString(), err.toString());
    }

    @Test
    void dryRunApplyAndUndoOnEveryHost() throws IOException {
        Map<String, String> before = TreeSnapshot.of(roots());
        Run dry = apply();
        assertThat(dry.code()).as(dry.out() + dry.err()).isZero();
        for (String h : HOSTS) {
            assertThat(dry.out()).contains("== " + h + ": COMPLETED\n")
                    .contains("kept 2 line(s) outside railyard's managed block: '127.0.0.1 localhost'; '10.78.0.99 "
                            + h + "-old'")
                    .contains("would change under " + roots().resolve(h) + "; run with --apply");
        }
        // each host rendered its own files: its own data address in its own netplan file
        assertThat(dry.out()).contains("+        - 10.78.1.1/24\n").contains("+        - 10.78.1.2/24\n").contains("+        - 10.78.1.3/24\n");
        assertThat(dry.out()).contains("apply (dry-run) through the ssh launcher: 3 of 3 node(s) done");
        assertThat(TreeSnapshot.of(roots())).as("a dry run writes nothing").isEqualTo(before);

        Run applied = apply("--apply", "--format", "json");
        assertThat(applied.code()).as(applied.out() + applied.err()).isZero();
        JsonNode doc = new ObjectMapper().readTree(applied.out());
        assertThat(doc.get("launcher").asText()).isEqualTo("ssh");
        for (int i = 0; i < HOSTS.size(); i++) {
            String h = HOSTS.get(i);
            JsonNode n = doc.get("nodes").get(i);
            assertThat(n.get("status").asText()).as(n.toString()).isEqualTo("COMPLETED");
            assertThat(n.get("result").get("root").asText()).isEqualTo(roots().resolve(h).toString());
            Path backup = Path.of(n.get("result").get("backup").asText());
            assertThat(backup.getParent()).isEqualTo(roots().resolve(h).resolve("var/backups/railyard"));
            assertThat(Files.readString(backup.resolve("etc/hosts"))).contains(h + "-old");
            assertThat(Files.readString(roots().resolve(h).resolve("etc/hosts"))).contains("10.78.0." + (i + 1) + "\t" + h + "\n")
                    .contains("10.78.1.3\th3-data\n").contains("10.78.0.99 " + h + "-old\n").doesNotContain("127.0.1.1\t");
            assertThat(Files.readString(roots().resolve(h).resolve("etc/netplan/60-railyard-fabric.yaml")))
                    .contains("- 10.78.1." + (i + 1) + "/24");
        }

        Run undo = apply("--undo");
        assertThat(undo.code()).as(undo.out() + undo.err()).isZero();
        for (String h : HOSTS) assertThat(undo.out()).contains("== " + h + ": COMPLETED\nundid ");
        Map<String, String> after = TreeSnapshot.of(roots());
        after.keySet().removeIf(p -> p.contains("var/backups/railyard"));
        assertThat(after).as("undo brings every host's root back").isEqualTo(before);
    }

    @Test
    void aHostWithSshdStoppedIsNamedUnreachableAndTheOthersAreDone() throws IOException {
        cluster.verb("stop-sshd", "h2");
        try {
            Run r = apply("--apply", "--format", "json");
            assertThat(r.code()).as(r.out() + r.err()).isEqualTo(3);
            JsonNode doc = new ObjectMapper().readTree(r.out());
            assertThat(doc.get("exitCode").asInt()).isEqualTo(3);
            assertThat(doc.get("summary").get("UNREACHABLE").asInt()).isEqualTo(1);
            List<String> statuses = new ArrayList<>();
            doc.get("nodes").forEach(n -> statuses.add(n.get("node").asText() + " " + n.get("status").asText()));
            assertThat(statuses).containsExactly("h1 COMPLETED", "h2 UNREACHABLE", "h3 COMPLETED");
            JsonNode h2 = doc.get("nodes").get(1);
            assertThat(h2.get("detail").asText())
                    .contains("ssh: connect to host " + cluster.node("h2").address() + " port 22: Connection refused");
            assertThat(h2.get("result").isNull()).isTrue();
            assertThat(roots().resolve("h2/var")).as("nothing written on the host that was not reached").doesNotExist();
            assertThat(roots().resolve("h1/var/backups/railyard")).isDirectory();

            Run text = apply();
            assertThat(text.code()).isEqualTo(3);
            assertThat(text.out()).contains("== h2: UNREACHABLE: prepare: ").contains("; unreachable: h2\n");
        } finally {
            cluster.verb("start-sshd", "h2");
        }
    }
}

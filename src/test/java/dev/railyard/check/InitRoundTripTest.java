package dev.railyard.check;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.cli.CliRun;
import dev.railyard.collect.SysfsFixtures;
import dev.railyard.model.NetInterface;
import dev.railyard.report.InventoryTextTrees;
import dev.railyard.report.Json;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's first steps on every real tree the project has: {@code railyard init --root T > cluster.yaml}, then
 * {@code railyard check --root T --spec cluster.yaml}. On the same machine the starter must (1) read back without a
 * spec error, (2) add no FAIL or WARN that {@code check} without a spec does not report (init must not describe the
 * machine wrongly), and (3) still read and check the same once edited as the starter's own comments and docs/spec.md
 * say: a cluster name, a second node, each network bound on it. A tally per tree is printed.
 */
class InitRoundTripTest {

    @TempDir
    Path dir;

    record Tree(String name, ReaderMutationFuzzTest.TreeBuilder builder) {}

    /** Every real tree of the test resources, once each, plus the variants a real node differs in. */
    static List<Tree> trees() {
        List<Tree> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        // the fuzzer's trees and the promise test's (the same trees set to pass what they fail as captured)
        for (CheckPromiseTest.Base b : CheckPromiseTest.bases()) {
            String name = b.name().replace("-with-spec", "");
            if (seen.add(name)) out.add(new Tree(name, b.builder()));
        }
        out.add(new Tree("node_exporter (one archive: ib, net, pci, host, os-release)", InventoryTextTrees::nodeExporter));
        out.add(new Tree("gpud-h100 with its Xid dmesg", InventoryTextTrees::gpudH100));
        out.add(new Tree("telegraf sys/class/net", d -> {
            SysfsFixtures.unpackDump("telegraf-net-testdata-speed.dump.txt", d.resolve("sys/class/net"));
            return d;
        }));
        // real nodes often carry their domain in the hostname; check finds its node by the whole hostname
        out.add(new Tree("h200x4-capture, hostname gpu01.cluster.example", d -> {
            Path t = ReaderMutationFuzzTest.bases().get(3).builder().build(d);
            CheckTrees.write(t, "proc/sys/kernel/hostname", "gpu01.cluster.example\n");
            return t;
        }));
        out.add(new Tree("gpud-h100, hostname dgx-01.example.org", d -> {
            CheckTrees.h100(d);
            CheckTrees.write(d, "proc/sys/kernel/hostname", "dgx-01.example.org\n");
            return d;
        }));
        return out;
    }

    private record Tally(String tree, int specErrors, int added, int editErrors, int editAdded, int guesses,
                         List<String> problems) {
        int violations() {
            return specErrors + added + editErrors + editAdded + guesses;
        }
    }

    @Test
    void initsSpecReadsBackAndAddsNoFailOrWarnOnEveryRealTree() throws Exception {
        List<Tally> tallies = new ArrayList<>();
        int i = 0;
        for (Tree t : trees()) {
            Path root = t.builder().build(Files.createDirectories(dir.resolve("t" + i++)));
            tallies.add(roundTrip(t.name(), root));
        }
        StringBuilder report = new StringBuilder("init round trip, per tree (spec errors / FAIL+WARN added by the "
                + "spec / edited-spec errors / FAIL+WARN added by the edited spec / unmarked guesses):\n");
        for (Tally t : tallies) {
            report.append(String.format("  %-62s %d / %d / %d / %d / %d%n", t.tree(), t.specErrors(), t.added(),
                    t.editErrors(), t.editAdded(), t.guesses()));
            for (String p : t.problems()) report.append("      ").append(p).append('\n');
        }
        int total = tallies.stream().mapToInt(Tally::violations).sum();
        report.append(tallies.size()).append(" trees, ").append(total).append(" violations\n");
        System.out.print(report);
        assertThat(total).as(report.toString()).isZero();
    }

    private Tally roundTrip(String name, Path root) throws IOException {
        List<String> problems = new ArrayList<>();
        CliRun init = CliRun.of("init", "--root", root.toString());
        int specErrors = 0;
        if (init.code() != 0) {
            problems.add("init exited " + init.code() + ": " + init.err().strip());
            return new Tally(name, 1, 0, 0, 0, 0, problems);
        }
        String yaml = init.out();
        String dump = System.getProperty("roundtrip.dump");
        if (dump != null) {
            Path d = Files.createDirectories(Path.of(dump));
            Files.writeString(d.resolve(name.replaceAll("[^A-Za-z0-9.-]+", "_") + ".yaml"), yaml);
            Files.writeString(d.resolve(name.replaceAll("[^A-Za-z0-9.-]+", "_") + ".edited.yaml"), edit(yaml));
            Files.writeString(d.resolve(name.replaceAll("[^A-Za-z0-9.-]+", "_") + ".check.json"),
                    CliRun.of("check", "--root", root.toString(), "--format", "json").out());
            Files.writeString(d.resolve(name.replaceAll("[^A-Za-z0-9.-]+", "_") + ".checkspec.json"),
                    CliRun.of("check", "--root", root.toString(), "--spec", d.resolve(name.replaceAll("[^A-Za-z0-9.-]+", "_") + ".yaml").toString(), "--format", "json").out());
        }
        Path spec = Files.writeString(dir.resolve("cluster-" + Math.abs(name.hashCode()) + ".yaml"), yaml);
        try {
            new SpecReader().read(spec);
        } catch (RuntimeException e) {
            problems.add("spec does not read back: " + e.getMessage());
            specErrors++;
        }
        CliRun bare = CliRun.of("check", "--root", root.toString(), "--format", "json");
        Set<String> before = failsAndWarns(bare);
        Compared withSpec = compare(root, spec, before, problems, "");
        specErrors += withSpec.errors();

        Path edited = Files.writeString(dir.resolve("edited-" + Math.abs(name.hashCode()) + ".yaml"), edit(yaml));
        int editErrors = 0;
        try {
            new SpecReader().read(edited);
        } catch (RuntimeException e) {
            problems.add("edited spec does not read back: " + e.getMessage());
            editErrors++;
        }
        Compared withEdited = compare(root, edited, before, problems, "edited: ");
        editErrors += withEdited.errors();
        CliRun render = CliRun.of("render", "--spec", edited.toString(), "--out", dir.resolve("render-" + Math.abs(name.hashCode())).toString());
        if (render.code() != 0) {
            problems.add("edited: render exited " + render.code() + ": " + render.err().strip());
            editErrors++;
        }
        List<String> guesses = unmarkedGuesses(yaml);
        for (String g : guesses) problems.add("a guess presented as fact: " + g);
        return new Tally(name, specErrors, withSpec.added(), editErrors, withEdited.added(), guesses.size(), problems);
    }

    private record Compared(int errors, int added) {}

    private static Compared compare(Path root, Path spec, Set<String> before, List<String> problems, String label) {
        CliRun run = CliRun.of("check", "--root", root.toString(), "--spec", spec.toString(), "--format", "json");
        int errors = 0;
        if (run.code() != 0 && run.code() != 1) {
            problems.add(label + "check --spec exited " + run.code() + ": " + run.err().strip());
            return new Compared(1, 0);
        }
        if (run.err().contains("is not a node of")) {
            problems.add(label + "check found no node of the spec for this machine: " + run.err().strip());
            errors++;
        }
        Set<String> after = failsAndWarns(run);
        after.removeAll(before);
        for (String f : after) problems.add(label + "added " + f);
        return new Compared(errors, after.size());
    }

    private static Set<String> failsAndWarns(CliRun run) {
        Set<String> out = new TreeSet<>();
        try {
            JsonNode doc = Json.mapper().readTree(run.out());
            // a node's own findings name it as the spec does (gpu01) or as the host does (gpu01.cluster.example)
            String node = doc.path("node").asText();
            for (JsonNode f : doc.path("findings")) {
                String sev = f.path("severity").asText();
                String subject = f.path("subject").asText();
                if (subject.equals(node) || subject.startsWith(node + " ")) subject = "NODE" + subject.substring(node.length());
                if (sev.equals("FAIL") || sev.equals("WARN")) {
                    out.add(sev + " " + f.path("id").asText() + " | " + subject + " | observed "
                            + f.path("observed").asText() + " | expected " + f.path("expected").asText());
                }
            }
        } catch (IOException e) {
            throw new AssertionError("check output is not JSON: " + run.out() + run.err(), e);
        }
        // the same finding without a spec may expect a default where the spec run expects the spec's value:
        // compare on severity, ID and subject
        Set<String> keys = new TreeSet<>();
        for (String s : out) keys.add(s.substring(0, s.indexOf(" | observed")));
        return keys;
    }

    /**
     * The edits the starter asks for: a cluster name, the commented node2 entry taken in, and each network's
     * "bind the other nodes" TODO replaced by node2's binding (this node's netdev and RDMA port, the next address).
     */
    static String edit(String yaml) {
        String out = yaml.replaceFirst("(?m)^cluster: .*$", "cluster: roundtrip")
                .replace("  # - name: node2\n  #   address: 192.0.2.12", "  - name: node2\n    address: 192.0.2.12");
        List<String> lines = new ArrayList<>(out.lines().toList());
        Pattern bind = Pattern.compile("^      ([^:]+): \\{(.*)}$");
        for (int j = 0; j < lines.size(); j++) {
            if (!lines.get(j).trim().startsWith("# TODO: bind the other nodes")) continue;
            Matcher m = bind.matcher(lines.get(j - 1));
            if (!m.matches()) continue;
            String body = m.group(2);
            Matcher a = Pattern.compile("address: (\\d+)\\.(\\d+)\\.(\\d+)\\.(\\d+)").matcher(body);
            if (a.find()) {
                int last = Integer.parseInt(a.group(4));
                int next = last >= 253 ? last - 1 : last + 1;
                body = body.replace(a.group(), "address: " + a.group(1) + "." + a.group(2) + "." + a.group(3) + "." + next);
            }
            lines.set(j, "      node2: {" + body + "}");
        }
        return String.join("\n", lines) + "\n";
    }

    /**
     * Values init could not read but still writes (a fallback node name or address, an unknown GPU model, the
     * placeholder cluster name, a management network it guessed, a RoCE MTU below 9000 copied as found) must say so
     * in a comment on their own line.
     */
    static List<String> unmarkedGuesses(String yaml) {
        List<String> out = new ArrayList<>();
        List<String> lines = yaml.lines().toList();
        String nodeName = null;
        for (String line : lines) {
            Matcher m = Pattern.compile("^  - name: (\\S+)$").matcher(line);
            if (m.matches() && nodeName == null) nodeName = m.group(1);
        }
        String network = null;
        boolean ethernet = false;
        boolean mgmtBound = yaml.matches("(?s).*\\n  - name: mgmt\\n(    [^\\n]*\\n)*    bind:\\n.*");
        for (String line : lines) {
            String value = line.strip();
            if (line.startsWith("  - name: ")) {
                network = value.substring("- name: ".length());
                ethernet = false;
            }
            if (!line.startsWith(" ")) network = null;
            if (value.startsWith("link_layer: ethernet")) ethernet = true;
            if (value.startsWith("#") || value.contains("#")) continue;
            boolean guess = value.equals("cluster: " + StarterSpecName.DEFAULT)
                    || value.matches("(- )?name: \"?unknown\"?")
                    || value.matches("model: \"?unknown\"?")
                    || value.matches("address: \"?unknown\"?")
                    || (nodeName != null && value.equals("address: " + nodeName))
                    || value.equals("link_layer: ethernet") && "mgmt".equals(network) && !mgmtBound
                    // a RoCE MTU below jumbo is copied as found, and check without a spec warns about it
                    || ethernet && network != null && !network.equals("mgmt") && value.matches("mtu: \\d+")
                    && Integer.parseInt(value.substring(5)) < NetInterface.JUMBO_MTU;
            if (guess) out.add(value);
        }
        return out;
    }

    private static final class StarterSpecName {
        static final String DEFAULT = dev.railyard.spec.StarterSpec.DEFAULT_NAME;
    }
}

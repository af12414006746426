package dev.railyard.render;

import dev.railyard.collect.InfinibandCollector;
import dev.railyard.model.ClusterSpec;
import dev.railyard.platform.CommandRunner;
import dev.railyard.platform.HostRoot;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The NetworkManager keyfiles and opensm.conf, read by the code that reads them on a node: libnm's keyfile parser
 * (NM.keyfile_read through python3-gi, plus a look-up of every group and key in libnm's settings, since libnm skips
 * unknown ones silently) and OpenSM's own option parser ({@code opensm -F FILE -c DUMP}: it parses the file, writes
 * the configuration it ended up with and exits without binding a port). Each reader is shown broken files too.
 */
class KeyfileAndOpenSmReadersTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Path NM_READ = Path.of("src/test/resources/render/nm-keyfile-read.py").toAbsolutePath();
    private final CommandRunner runner = CommandRunner.system();

    /** python3 with libnm's introspection data, or a skip (a failure in CI) naming the packages. */
    private Path libnmPython() {
        Path python = RealTools.require("python3", "python3");
        CommandRunner.Result r = runner.run(List.of(python.toString(), "-c",
                "import gi; gi.require_version('NM', '1.0'); from gi.repository import NM"), TIMEOUT);
        if (!r.ok()) RealTools.unavailable("libnm is not importable from " + python
                + " (apt-get install python3-gi gir1.2-nm-1.0): " + r.stderr().strip());
        return python;
    }

    /** What libnm read from each file: FILE: lines start a file, key=value lines follow. */
    private static Map<String, Map<String, String>> settings(String stdout) {
        Map<String, Map<String, String>> files = new LinkedHashMap<>();
        Map<String, String> current = null;
        for (String line : stdout.lines().toList()) {
            if (line.startsWith("FILE: ")) {
                current = new LinkedHashMap<>();
                files.put(line.substring(6), current);
            } else if (current != null && line.contains("=")) {
                current.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
            }
        }
        return files;
    }

    private CommandRunner.Result readKeyfiles(Path python, List<Path> files) {
        List<String> argv = new ArrayList<>(List.of(python.toString(), NM_READ.toString()));
        files.forEach(f -> argv.add(f.toString()));
        return runner.run(argv, TIMEOUT);
    }

    /** The V100 homelab (two RoCE rails at MTU 9000) as if its nodes ran RHEL: Ethernet keyfiles beside S3's IPoIB ones. */
    private static ClusterSpec s1AsRhel() throws IOException {
        String text = Files.readString(Path.of("examples", "s1-homelab-v100-roce.yaml"));
        assertThat(text).contains(", bmc: ");
        return new SpecReader().read("s1-as-rhel.yaml", text.replace(", bmc: ", ", os_family: rhel, bmc: "));
    }

    @Test
    void libnmReadsEveryKeyfileAsRendered(@TempDir Path tmp) throws IOException {
        Path python = libnmPython();
        List<ClusterSpec> specs = List.of(Examples.spec("s3-r730-ib-qdr"), s1AsRhel());
        Map<Path, RenderInput.Bound> rendered = new LinkedHashMap<>();
        for (ClusterSpec spec : specs) {
            for (ClusterSpec.Node node : spec.nodes()) {
                List<RenderedFile> files = NodeRenderer.all().render(spec, node.name(), Optional.empty(), RenderInput.DEFAULT_AGENT_PORT);
                Path root = tmp.resolve(spec.cluster() + "-" + node.name());
                NodeRenderer.write(root, files);
                for (RenderInput.Bound b : new RenderInput(spec, node, Optional.empty(), 1).fabric()) {
                    rendered.put(root.resolve(NetworkManagerRenderer.DIR + "railyard-" + b.network().name() + ".nmconnection"), b);
                }
            }
        }
        assertThat(rendered).as("keyfiles: 3 S3 nodes x 1 IPoIB network, 2 S1 nodes x 2 RoCE rails").hasSize(3 + 4);
        CommandRunner.Result r = readKeyfiles(python, List.copyOf(rendered.keySet()));
        assertThat(r.ok()).as(r.stdout() + r.stderr()).isTrue();
        assertThat(r.stdout()).doesNotContain("WARN:").doesNotContain("ERROR:");

        Map<String, Map<String, String>> read = settings(r.stdout());
        assertThat(read).hasSize(rendered.size());
        for (Map.Entry<Path, RenderInput.Bound> e : rendered.entrySet()) {
            Map<String, String> s = read.get(e.getKey().toString());
            RenderInput.Bound b = e.getValue();
            assertThat(s).as(e.getKey().toString())
                    .containsEntry("connection.id", "railyard-" + b.network().name())
                    .containsEntry("connection.interface-name", b.binding().netdev())
                    .containsEntry("connection.autoconnect", "true")
                    .containsEntry("ipv4.method", "manual")
                    .containsEntry("ipv4.addresses", b.cidr().orElseThrow())
                    .containsEntry("ipv4.may-fail", "true")
                    .containsEntry("ipv6.method", "disabled");
            if (b.infiniband()) {
                // the R730 cluster's ConnectX-4 on RHEL 8 and later: enhanced IPoIB, datagram only, at most 4092
                assertThat(s).containsEntry("connection.type", "infiniband")
                        .containsEntry("infiniband.transport-mode", "datagram")
                        .containsEntry("infiniband.mtu", "4092");
            } else {
                assertThat(s).containsEntry("connection.type", "802-3-ethernet").containsEntry("ethernet.mtu", "9000");
            }
        }
    }

    @Test
    void libnmRejectsBrokenKeyfiles(@TempDir Path tmp) throws IOException {
        Path python = libnmPython();
        String good = Examples.file(Examples.render("s3-r730-ib-qdr", "r720"),
                NetworkManagerRenderer.DIR + "railyard-ib.nmconnection").content();
        Map<String, String> broken = Map.of(
                "mode-typo", good.replace("transport-mode=datagram", "transport-mode=datagramm"),
                "mtu-not-a-number", good.replace("mtu=4092", "mtu=sixty-five-k"),
                "key-typo", good.replace("may-fail=true", "may-fial=true"),
                "group-typo", good.replace("[ipv6]", "[ip6]"),
                "required-group-typo", good.replace("[infiniband]", "[infinband]"));
        Map<String, String> expected = Map.of(
                "mode-typo", "ERROR:", "mtu-not-a-number", "cannot be interpreted as integer",
                "key-typo", "unknown key may-fial in [ipv4]", "group-typo", "unknown setting [ip6]",
                "required-group-typo", "setting required for connection of type 'infiniband'");
        for (Map.Entry<String, String> e : broken.entrySet()) {
            assertThat(e.getValue()).as(e.getKey() + " differs from the rendered file").isNotEqualTo(good);
            Path f = tmp.resolve(e.getKey() + ".nmconnection");
            Files.writeString(f, e.getValue());
            CommandRunner.Result r = readKeyfiles(python, List.of(f));
            assertThat(r.exitCode()).as(e.getKey() + ": " + r.stdout() + r.stderr()).isEqualTo(1);
            assertThat(r.stdout()).as(e.getKey()).contains(expected.get(e.getKey()));
        }
    }

    /** opensm parses FILE, writes the configuration it would run with to DUMP, and exits: no port, no daemon. */
    private CommandRunner.Result opensm(Path opensm, Path conf, Path dump) {
        return runner.run(List.of(opensm.toString(), "-F", conf.toString(), "-c", dump.toString()), TIMEOUT, dump.getParent(), Map.of());
    }

    /** Every "key value" line of the file, as opensm.conf writes them. */
    private static Map<String, String> options(String conf) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : conf.lines().map(String::strip).toList()) {
            if (line.isEmpty() || line.startsWith("#")) continue;
            int space = line.indexOf(' ');
            out.put(line.substring(0, space), line.substring(space + 1).strip());
        }
        return out;
    }

    private static void assertParsedCleanly(CommandRunner.Result r, String what) {
        assertThat(r.ok()).as(what + ": " + r.stdout() + r.stderr()).isTrue();
        assertThat(r.stdout() + r.stderr()).as(what)
                .doesNotContain("Unrecognized token").doesNotContain("Parsing error").doesNotContain("Invalid Cached Option");
    }

    @Test
    void opensmParsesTheConfigurationAndKeepsEveryValue(@TempDir Path tmp) throws IOException {
        Path opensm = RealTools.require("opensm", "opensm");
        Path port = tmp.resolve("inventory/sys/class/infiniband/mlx5_0/ports/1");
        Files.createDirectories(port.resolve("gids"));
        Files.writeString(port.resolve("link_layer"), "InfiniBand\n");
        Files.writeString(port.resolve("gids/0"), "fe80:0000:0000:0000:248a:0703:0052:aab1\n");
        var rdma = new InfinibandCollector().collect(HostRoot.at(tmp.resolve("inventory")));
        Map<String, String> confs = Map.of(
                "guid-0", Examples.file(Examples.render("s3-r730-ib-qdr", "r720"), "etc/rdma/opensm.conf").content(),
                "guid-from-inventory", Examples.file(Examples.render(Examples.spec("s3-r730-ib-qdr"), "r720", rdma),
                        "etc/rdma/opensm.conf").content());
        for (Map.Entry<String, String> e : confs.entrySet()) {
            Path dir = Files.createDirectories(tmp.resolve(e.getKey()));
            Path conf = Files.writeString(dir.resolve("opensm.conf"), e.getValue());
            Path dump = dir.resolve("effective.conf");
            CommandRunner.Result r = opensm(opensm, conf, dump);
            assertParsedCleanly(r, e.getKey());
            Map<String, String> rendered = options(e.getValue());
            assertThat(rendered).containsKeys("guid", "sm_priority", "log_file");
            // the configuration opensm would run with holds every value the rendered file set
            assertThat(options(Files.readString(dump))).as(e.getKey()).containsAllEntriesOf(rendered);
        }
        assertThat(options(confs.get("guid-from-inventory"))).containsEntry("guid", "0x248a07030052aab1");
    }

    @Test
    void opensmReportsUnknownAndMalformedOptions(@TempDir Path tmp) throws IOException {
        Path opensm = RealTools.require("opensm", "opensm");
        String good = Examples.file(Examples.render("s3-r730-ib-qdr", "r720"), "etc/rdma/opensm.conf").content();
        Map<String, String> broken = Map.of(
                "key-typo", good.replace("sm_priority 15", "sm_priorty 15"),
                "not-a-number", good.replace("sm_priority 15", "sm_priority highest"));
        Map<String, String> said = Map.of("key-typo", "Unrecognized token: \"sm_priorty\"",
                "not-a-number", "Parsing error in field sm_priority");
        for (Map.Entry<String, String> e : broken.entrySet()) {
            assertThat(e.getValue()).isNotEqualTo(good);
            Path dir = Files.createDirectories(tmp.resolve(e.getKey()));
            Path dump = dir.resolve("effective.conf");
            CommandRunner.Result r = opensm(opensm, Files.writeString(dir.resolve("opensm.conf"), e.getValue()), dump);
            assertThat(r.stdout() + r.stderr()).as(e.getKey()).contains(said.get(e.getKey()));
            // and the value the file meant is not what opensm would run with
            assertThat(options(Files.readString(dump))).as(e.getKey()).doesNotContainEntry("sm_priority", "15");
        }
    }
}

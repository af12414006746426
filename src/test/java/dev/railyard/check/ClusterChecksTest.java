package dev.railyard.check;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/** The cluster checks on the S1 example spec (two V100 nodes, two RoCE rails) with facts varied per case. */
class ClusterChecksTest {

    private static final ClusterSpec S1 = new SpecReader().read(Path.of("examples/s1-homelab-v100-roce.yaml"));

    /** gpuserver1/2 as S1 wants them: same versions, ens6/ens6d1 at MTU 9000 with their rail addresses. */
    private static NodeFacts good(String node, String rail0, String rail1, String mgmt) {
        return new NodeFacts(node, node, Reading.of("580.126.09"), Reading.of("13.0"), Reading.of("2.28.3"),
                Map.of("mlx4_0", Reading.of("2.42.5000")), List.of(
                netdev("enp5s0", 1500, mgmt + "/24"), netdev("ens6", 9000, rail0 + "/24"), netdev("ens6d1", 9000, rail1 + "/24"),
                netdev("lo", 65536, "127.0.0.1/8")));
    }

    private static NodeFacts.Netdev netdev(String name, int mtu, String... addrs) {
        return new NodeFacts.Netdev(name, Reading.of(mtu), Reading.of("up"), Reading.of(List.of(addrs)));
    }

    private static NodeFacts n1() {
        return good("gpuserver1", "10.0.1.1", "10.0.0.1", "192.168.1.73");
    }

    private static NodeFacts n2() {
        return good("gpuserver2", "10.0.1.2", "10.0.0.2", "192.168.1.71");
    }

    private static NodeFacts withNetdev(NodeFacts f, String name, UnaryOperator<NodeFacts.Netdev> change) {
        return new NodeFacts(f.node(), f.hostname(), f.driverVersion(), f.cudaVersion(), f.ncclVersion(), f.rdmaFirmware(),
                f.netdevs().stream().map(d -> d.name().equals(name) ? change.apply(d) : d).toList());
    }

    private static NodeFacts withVersions(NodeFacts f, String driver, String fw) {
        return new NodeFacts(f.node(), f.hostname(), Reading.of(driver), f.cudaVersion(), f.ncclVersion(),
                Map.of("mlx4_0", Reading.of(fw)), f.netdevs());
    }

    private static List<Finding> run(ClusterSpec spec, NodeFacts... facts) {
        Map<String, NodeFacts> m = new LinkedHashMap<>();
        for (NodeFacts f : facts) m.put(f.node(), f);
        Map<String, String> missing = new LinkedHashMap<>();
        spec.nodes().forEach(n -> {
            if (!m.containsKey(n.name())) missing.put(n.name(), "unreachable: ssh: connect to host refused");
        });
        ClusterInput in = new ClusterInput(spec, m, missing);
        return ClusterCheck.all().stream().flatMap(c -> c.run(in).stream()).toList();
    }

    private static List<String> notPass(List<Finding> findings) {
        return findings.stream().filter(f -> f.severity() != Severity.PASS && f.severity() != Severity.INFO)
                .map(f -> f.severity() + " " + f.id() + " " + f.subject()).toList();
    }

    private record Case(String name, NodeFacts a, NodeFacts b, List<String> expected) {}

    @Test
    void eachCaseRaisesExactlyItsFindings() {
        List<Case> cases = List.of(
                new Case("as specified", n1(), n2(), List.of()),
                new Case("one end of rail1 at 1500", n1(), withNetdev(n2(), "ens6d1",
                        d -> new NodeFacts.Netdev(d.name(), Reading.of(1500), d.operState(), d.addresses())),
                        List.of("FAIL cluster.mtu rail1 gpuserver2 ens6d1")),
                new Case("driver differs", n1(), withVersions(n2(), "570.86.15", "2.42.5000"),
                        List.of("FAIL cluster.versions GPU driver on gpuserver2")),
                new Case("firmware differs", n1(), withVersions(n2(), "580.126.09", "2.36.5000"),
                        List.of("WARN cluster.versions mlx4_0 firmware on gpuserver2")),
                new Case("same rail0 address on both", n1(), good("gpuserver2", "10.0.1.1", "10.0.0.2", "192.168.1.71"),
                        List.of("FAIL cluster.addresses 10.0.1.1")),
                new Case("rail1 netdev without its address", n1(), withNetdev(n2(), "ens6d1",
                        d -> new NodeFacts.Netdev(d.name(), d.mtu(), d.operState(), Reading.of(List.of("169.254.3.1/16")))),
                        List.of("FAIL cluster.addresses rail1 gpuserver2 ens6d1")));
        for (Case c : cases) {
            assertThat(notPass(run(S1, c.a(), c.b()))).as(c.name()).containsExactlyInAnyOrderElementsOf(c.expected());
        }
    }

    @Test
    void theOddOneOutIsNamedAgainstTheMajority() {
        ClusterSpec three = new SpecReader().read(Path.of("examples/s3-r730-ib-qdr.yaml"));
        List<String> names = three.nodes().stream().map(ClusterSpec.Node::name).toList();
        NodeFacts a = withVersions(good(names.get(0), "10.9.9.1", "10.9.8.1", "1.1.1.1"), "580.1", "fw1");
        NodeFacts b = withVersions(good(names.get(1), "10.9.9.2", "10.9.8.2", "1.1.1.2"), "580.1", "fw1");
        NodeFacts c = withVersions(good(names.get(2), "10.9.9.3", "10.9.8.3", "1.1.1.3"), "575.0", "fw1");
        Finding f = run(three, a, b, c).stream().filter(x -> x.id().equals("cluster.versions") && x.severity() == Severity.FAIL)
                .findFirst().orElseThrow();
        assertThat(f.subject()).isEqualTo("GPU driver on " + names.get(2));
        assertThat(f.observed()).isEqualTo("575.0");
        assertThat(f.expected()).isEqualTo("580.1 (as on 2 of 3 nodes)");
    }

    @Test
    void anUnreachableNodeMakesItsComparisonsUnknownNeverPass() {
        List<Finding> f = run(S1, n1());
        assertThat(f).filteredOn(x -> x.id().equals("cluster.mtu") && x.subject().contains("gpuserver2"))
                .isNotEmpty().allSatisfy(x -> {
                    assertThat(x.severity()).isEqualTo(Severity.UNKNOWN);
                    assertThat(x.observed()).contains("unreachable");
                });
        assertThat(f).filteredOn(x -> x.id().equals("cluster.mtu") && x.severity() == Severity.PASS).isEmpty();
        assertThat(f).filteredOn(x -> x.id().equals("cluster.versions") && x.severity() == Severity.UNKNOWN).isNotEmpty();
    }

    @Test
    void computeOnTheManagementNetworkIsCaught() {
        String yaml = """
                cluster: mixed
                nodes:
                  - {name: a, address: 192.168.1.10}
                  - {name: b, address: 192.168.1.11}
                networks:
                  - {name: mgmt, role: management, subnet: 192.168.1.0/24, bind: {a: {netdev: eno1, address: 192.168.1.10}, b: {netdev: eno1, address: 192.168.1.11}}}
                  - name: rail0
                    role: compute
                    subnet: 192.168.0.0/16
                    bind:
                      a: {netdev: eno1, address: 192.168.2.10}
                      b: {netdev: ens6, address: 192.168.2.11}
                """;
        ClusterSpec spec = new SpecReader().read("mixed.yaml", yaml);
        List<Finding> f = new NetworkSeparationCheck().run(new ClusterInput(spec, Map.of(), Map.of()));
        assertThat(f).extracting(Finding::severity).containsOnly(Severity.FAIL);
        assertThat(f).extracting(Finding::observed).anySatisfy(o -> assertThat(o).contains("overlaps mgmt 192.168.1.0/24"));

        String apart = yaml.replace("subnet: 192.168.0.0/16", "subnet: 10.0.0.0/24").replace("192.168.2.", "10.0.0.");
        List<Finding> g = new NetworkSeparationCheck().run(new ClusterInput(new SpecReader().read("apart.yaml", apart), Map.of(), Map.of()));
        assertThat(g).extracting(x -> x.severity() + " " + x.observed())
                .containsExactly("FAIL netdev eno1 carries both rail0 and mgmt");
    }
}

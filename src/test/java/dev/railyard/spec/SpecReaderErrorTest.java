package dev.railyard.spec;

import dev.railyard.model.RailyardException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** One mistake per row, made in an otherwise valid spec; the whole message is asserted, line included. */
class SpecReaderErrorTest {

    static final String VALID = """
            cluster: homelab-v100
            nodes:
              - {name: gpuserver1, address: 192.168.1.73, bmc: 192.168.1.72}
              - {name: gpuserver2, address: 192.168.1.71, bmc: 192.168.1.70}
            gpus: {model: "Tesla V100-PCIE-16GB", per_node: 2}
            networks:
              - {name: mgmt, role: management, subnet: 192.168.1.0/24}
              - name: rail1
                role: compute
                link_layer: ethernet
                rate_gbps: 40
                mtu: 9000
                subnet: 10.0.0.0/24
                bind:
                  gpuserver1: {netdev: ens6d1, rdma: "mlx4_0:2", address: 10.0.0.1}
                  gpuserver2: {netdev: ens6d1, rdma: "mlx4_0:2", address: 10.0.0.2}
            expect: {rdma_bw_efficiency: 0.90, rdma_latency_us: 2.0}
            """;

    static Stream<Arguments> mistakes() {
        return Stream.of(
                arguments("enum typo", "link_layer: ethernet", "link_layer: etherent",
                        "cluster.yaml:10: networks[1].link_layer: \"etherent\" is not one of ethernet, infiniband"),
                arguments("role", "role: compute", "role: gpu",
                        "cluster.yaml:9: networks[1].role: \"gpu\" is not one of management, compute, storage"),
                arguments("ipoib mode", "    mtu: 9000", "    mtu: 9000\n    ipoib_mode: connectd",
                        "cluster.yaml:13: networks[1].ipoib_mode: \"connectd\" is not one of datagram, connected"),
                arguments("ipoib on ethernet", "    mtu: 9000", "    mtu: 9000\n    ipoib_mode: connected",
                        "cluster.yaml:13: networks[1].ipoib_mode: applies only to link_layer: infiniband (IPoIB)"),
                arguments("syntax: unclosed flow", "rate_gbps: 40", "rate_gbps: [40",
                        "cluster.yaml:12: YAML syntax error: expected ',' or ']', but got :"),
                arguments("syntax: tab indent", "    mtu: 9000", "\tmtu: 9000",
                        "cluster.yaml:12: YAML syntax error: found character '\\t(TAB)' that cannot start any token. "
                                + "(Do not use \\t(TAB) for indentation)"),
                arguments("syntax: key indented too far", "    mtu: 9000", "    mtu: 9000\n     rate_gbps: 40",
                        "cluster.yaml:13: YAML syntax error: mapping values are not allowed here (a key indented "
                                + "differently from the lines around it, or an unquoted value with \": \" in it)"),
                arguments("unknown key with suggestion", "address: 192.168.1.71", "adress: 192.168.1.71",
                        "cluster.yaml:4: nodes[1].adress: unknown key; did you mean \"address\"?"),
                arguments("dash for underscore", "per_node: 2", "per-node: 2",
                        "cluster.yaml:5: gpus.per-node: unknown key; did you mean \"per_node\"?"),
                arguments("unknown key, nothing close", "expect: {", "expect: {colour: red, ",
                        "cluster.yaml:17: expect.colour: unknown key; allowed: rdma_bw_efficiency, rdma_latency_us, "
                                + "gpu_temp_warn_c, net_buffer_bytes, nccl_busbw_gbytes_per_s, storage_seq_mbps, tcp_gbps, "
                                + "tcp_latency_us"),
                arguments("agent listen without port", "expect: {", "agent: {listen: 0.0.0.0}\nexpect: {",
                        "cluster.yaml:17: agent.listen: \"0.0.0.0\" is not ADDR:PORT (e.g. 0.0.0.0:9410, 127.0.0.1:9410, "
                                + ":9410 or [::]:9410)"),
                arguments("agent listen port out of range", "expect: {", "agent: {listen: \"127.0.0.1:70000\"}\nexpect: {",
                        "cluster.yaml:17: agent.listen: \"127.0.0.1:70000\" is not ADDR:PORT (e.g. 0.0.0.0:9410, "
                                + "127.0.0.1:9410, :9410 or [::]:9410)"),
                arguments("agent key typo", "expect: {", "agent: {lisen: \":9410\"}\nexpect: {",
                        "cluster.yaml:17: agent.lisen: unknown key; did you mean \"listen\"?"),
                arguments("unknown top-level key", "networks:", "network:",
                        "cluster.yaml:6: network: unknown key; did you mean \"networks\"?"),
                arguments("integer expected", "mtu: 9000", "mtu: jumbo",
                        "cluster.yaml:12: networks[1].mtu: expected an integer, got \"jumbo\""),
                arguments("number expected", "rate_gbps: 40", "rate_gbps: 40G",
                        "cluster.yaml:11: networks[1].rate_gbps: expected a number, got \"40G\""),
                arguments("list where text expected", "cluster: homelab-v100", "cluster: [homelab-v100]",
                        "cluster.yaml:1: cluster: expected a text value, got a list"),
                arguments("nodes not a list", "nodes:\n  - {name: gpuserver1, address: 192.168.1.73, bmc: 192.168.1.72}\n"
                                + "  - {name: gpuserver2, address: 192.168.1.71, bmc: 192.168.1.70}\n",
                        "nodes: {name: gpuserver1}\n",
                        "cluster.yaml:2: nodes: expected a list, got a mapping; put a dash before each entry: "
                                + "\"- name: ...\""),
                arguments("nodes as a mapping by name", "nodes:\n  - {name: gpuserver1, address: 192.168.1.73, bmc: 192.168.1.72}\n"
                                + "  - {name: gpuserver2, address: 192.168.1.71, bmc: 192.168.1.70}\n",
                        "nodes:\n  gpuserver1: {address: 192.168.1.73}\n  gpuserver2: {address: 192.168.1.71}\n",
                        "cluster.yaml:3: nodes: expected a list, got a mapping; write each entry as a list item with its "
                                + "name inside: \"- name: gpuserver1\" with \"address: ...\" under it"),
                arguments("missing node key", ", address: 192.168.1.71, bmc", ", bmc",
                        "cluster.yaml:4: nodes[1]: missing required key \"address\""),
                arguments("missing top-level key", "cluster: homelab-v100\n", "",
                        "cluster.yaml:1: missing required key \"cluster\""),
                arguments("key without value", "role: compute", "role:",
                        "cluster.yaml:9: networks[1].role: needs a value"),
                arguments("bind to unknown node, close", "  gpuserver2: {netdev", "  gpusrever2: {netdev",
                        "cluster.yaml:16: networks[1].bind.gpusrever2: no node named \"gpusrever2\" in nodes; "
                                + "did you mean \"gpuserver2\"?"),
                arguments("bind to unknown node, far", "  gpuserver2: {netdev", "  spark-01: {netdev",
                        "cluster.yaml:16: networks[1].bind.spark-01: no node named \"spark-01\" in nodes; "
                                + "nodes are: gpuserver1, gpuserver2"),
                arguments("rdma without port", "\"mlx4_0:2\", address: 10.0.0.2", "\"mlx4_0\", address: 10.0.0.2",
                        "cluster.yaml:16: networks[1].bind.gpuserver2.rdma: \"mlx4_0\" is not DEVICE:PORT such as "
                                + "\"mlx4_0:2\" (ports count from 1)"),
                arguments("rdma port 0", "\"mlx4_0:2\", address: 10.0.0.2", "\"mlx4_0:0\", address: 10.0.0.2",
                        "cluster.yaml:16: networks[1].bind.gpuserver2.rdma: \"mlx4_0:0\" is not DEVICE:PORT such as "
                                + "\"mlx4_0:2\" (ports count from 1)"),
                arguments("subnet prefix too long", "subnet: 10.0.0.0/24", "subnet: 10.0.0.0/33",
                        "cluster.yaml:13: networks[1].subnet: \"10.0.0.0/33\" is not an IPv4 CIDR such as 10.0.0.0/24"),
                arguments("subnet without prefix", "subnet: 10.0.0.0/24", "subnet: 10.0.0.0",
                        "cluster.yaml:13: networks[1].subnet: \"10.0.0.0\" is not an IPv4 CIDR such as 10.0.0.0/24"),
                arguments("subnet with host bits", "subnet: 10.0.0.0/24", "subnet: 10.0.0.1/24",
                        "cluster.yaml:13: networks[1].subnet: \"10.0.0.1/24\" has host bits set; did you mean 10.0.0.0/24?"),
                arguments("bad address", "address: 10.0.0.2}", "address: 10.0.0.300}",
                        "cluster.yaml:16: networks[1].bind.gpuserver2.address: \"10.0.0.300\" is not an IPv4 address "
                                + "such as 10.0.0.1 or 10.0.0.1/24"),
                arguments("address outside subnet", "address: 10.0.0.2}", "address: 10.0.1.2}",
                        "cluster.yaml:16: networks[1].bind.gpuserver2.address: 10.0.1.2 is outside the network's "
                                + "subnet 10.0.0.0/24"),
                arguments("address prefix differs", "address: 10.0.0.2}", "address: 10.0.0.2/16}",
                        "cluster.yaml:16: networks[1].bind.gpuserver2.address: 10.0.0.2/16 has a different prefix "
                                + "length than the subnet 10.0.0.0/24"),
                arguments("address bound twice", "address: 10.0.0.2}", "address: 10.0.0.1}",
                        "cluster.yaml:16: networks[1].bind.gpuserver2.address: 10.0.0.1 is also bound to gpuserver1"),
                arguments("bad node address", "address: 192.168.1.73", "address: 192.168.1.273",
                        "cluster.yaml:3: nodes[0].address: \"192.168.1.273\" is not an IPv4 address"),
                arguments("user@host as address", "address: 192.168.1.73", "address: root@192.168.1.73",
                        "cluster.yaml:3: nodes[0].address: \"root@192.168.1.73\" has a user name in it; write address: "
                                + "192.168.1.73 and the user as ssh: {user: root} (this node's or the top-level ssh section)"),
                arguments("host:port as address", "address: 192.168.1.73", "address: \"gpuserver1.lab:2222\"",
                        "cluster.yaml:3: nodes[0].address: \"gpuserver1.lab:2222\" has a port in it; write address: "
                                + "gpuserver1.lab and the port as ssh: {port: 2222} (this node's or the top-level ssh section)"),
                arguments("IPv6 literal as address", "address: 192.168.1.73", "address: \"fd00:1::73\"",
                        "cluster.yaml:3: nodes[0].address: \"fd00:1::73\" looks like an IPv6 address; node addresses are "
                                + "IPv4 or host names: give the node a name in your ssh_config (Host NAME, HostName "
                                + "fd00:1::73) or /etc/hosts and write that name here"),
                arguments("bracketed IPv6 as address", "address: 192.168.1.73", "address: \"[fd00:1::73]\"",
                        "cluster.yaml:3: nodes[0].address: \"[fd00:1::73]\" looks like an IPv6 address; node addresses are "
                                + "IPv4 or host names: give the node a name in your ssh_config (Host NAME, HostName "
                                + "fd00:1::73) or /etc/hosts and write that name here"),
                arguments("zero-padded node address", "address: 192.168.1.73", "address: 192.168.1.073",
                        "cluster.yaml:3: nodes[0].address: \"192.168.1.073\" has a zero-padded number, which ssh, ping and "
                                + "Java read as octal or refuse (010 is 8); write 192.168.1.73"),
                arguments("zero-padded bound address", "address: 10.0.0.2}", "address: 10.0.0.02/24}",
                        "cluster.yaml:16: networks[1].bind.gpuserver2.address: \"10.0.0.02/24\" has a zero-padded number, "
                                + "which ssh, ping and Java read as octal or refuse (010 is 8); write 10.0.0.2/24"),
                arguments("zero-padded subnet", "subnet: 10.0.0.0/24", "subnet: 10.0.000.0/24",
                        "cluster.yaml:13: networks[1].subnet: \"10.0.000.0/24\" has a zero-padded number, which ssh, ping "
                                + "and Java read as octal or refuse (010 is 8); write 10.0.0.0/24"),
                arguments("node range as a name", "name: gpuserver1,", "name: \"gpuserver[1-2]\",",
                        "cluster.yaml:3: nodes[0].name: \"gpuserver[1-2]\" is not a valid name (letters, digits, '.', "
                                + "'_', '-'; at most 63); ranges such as node[01-04] or node{1..4} are not expanded: list "
                                + "each node"),
                arguments("node range as an address", "address: 192.168.1.73", "address: \"gpu[01-04].lab\"",
                        "cluster.yaml:3: nodes[0].address: \"gpu[01-04].lab\" is not a host name; ranges such as "
                                + "node[01-04] or node{1..4} are not expanded: list each node"),
                arguments("duplicate node name", "{name: gpuserver2, address: 192.168.1.71",
                        "{name: gpuserver1, address: 192.168.1.71",
                        "cluster.yaml:4: nodes[1].name: duplicate node name \"gpuserver1\" (first at line 3)"),
                arguments("duplicate network name", "name: rail1", "name: mgmt",
                        "cluster.yaml:8: networks[1].name: duplicate network name \"mgmt\" (first at line 7)"),
                arguments("duplicate key", "    mtu: 9000", "    mtu: 9000\n    mtu: 1500",
                        "cluster.yaml:13: networks[1].mtu: duplicate key (first at line 12)"),
                arguments("mtu too large", "mtu: 9000", "mtu: 70000",
                        "cluster.yaml:12: networks[1].mtu: 70000 is out of range 68..65520"),
                arguments("mtu too small", "mtu: 9000", "mtu: 67",
                        "cluster.yaml:12: networks[1].mtu: 67 is out of range 68..65520"),
                arguments("efficiency as percent", "rdma_bw_efficiency: 0.90", "rdma_bw_efficiency: 90",
                        "cluster.yaml:17: expect.rdma_bw_efficiency: 90 is not in (0, 1]; write 0.90 for 90 %"),
                arguments("efficiency zero", "rdma_bw_efficiency: 0.90", "rdma_bw_efficiency: 0",
                        "cluster.yaml:17: expect.rdma_bw_efficiency: 0 is not in (0, 1]; write 0.90 for 90 %"),
                arguments("negative rate", "rate_gbps: 40", "rate_gbps: -40",
                        "cluster.yaml:11: networks[1].rate_gbps: -40 must be greater than 0"),
                arguments("netdev too long", "netdev: ens6d1, rdma: \"mlx4_0:2\", address: 10.0.0.1",
                        "netdev: enp65s0f0np0rocev2, rdma: \"mlx4_0:2\", address: 10.0.0.1",
                        "cluster.yaml:15: networks[1].bind.gpuserver1.netdev: \"enp65s0f0np0rocev2\" is not a network "
                                + "interface name (1-15 characters, no '/' or spaces)"),
                arguments("os family typo", "bmc: 192.168.1.70}", "bmc: 192.168.1.70, os_family: redhat}",
                        "cluster.yaml:4: nodes[1].os_family: \"redhat\" is not one of ubuntu, rhel"),
                arguments("netdev to disable", "bmc: 192.168.1.70}", "bmc: 192.168.1.70, disable_netdevs: [enp1s0f0np0, \"a b\"]}",
                        "cluster.yaml:4: nodes[1].disable_netdevs[1]: \"a b\" is not a network interface name "
                                + "(1-15 characters, no '/' or spaces)"),
                arguments("subnet manager on ethernet", "    mtu: 9000", "    mtu: 9000\n    subnet_manager: gpuserver1",
                        "cluster.yaml:13: networks[1].subnet_manager: applies only to link_layer: infiniband "
                                + "(OpenSM runs on an InfiniBand port)"),
                arguments("subnet manager not a node", "link_layer: ethernet\n    rate_gbps: 40",
                        "link_layer: infiniband\n    subnet_manager: gpuserver3\n    rate_gbps: 40",
                        "cluster.yaml:11: networks[1].subnet_manager: no node named \"gpuserver3\" in nodes"),
                arguments("slurm key typo", "expect: {", "slurm: {partition: gpu, gres: h100}\nexpect: {",
                        "cluster.yaml:17: slurm.gres: unknown key; allowed: partition, gres_type"),
                arguments("empty node list", "nodes:\n  - {name: gpuserver1, address: 192.168.1.73, bmc: 192.168.1.72}\n"
                                + "  - {name: gpuserver2, address: 192.168.1.71, bmc: 192.168.1.70}\n",
                        "nodes: []\n",
                        "cluster.yaml:2: nodes: needs at least one node"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void reportsFileLineKeyPathAndProblem(String name, String from, String to, String message) {
        assertThat(VALID).contains(from);
        String broken = VALID.replace(from, to);
        assertThatThrownBy(() -> new SpecReader().read("cluster.yaml", broken))
                .isInstanceOf(RailyardException.Usage.class)
                .hasMessage(message)
                .satisfies(e -> assertThat(((RailyardException) e).exitCode()).isEqualTo(2));
    }

    @org.junit.jupiter.api.Test
    void theUnbrokenSpecReads() {
        assertThat(new SpecReader().read("cluster.yaml", VALID).nodes()).hasSize(2);
    }

    /** ssh_config Host aliases may hold '_' ("Host gpu_01"): plain ssh takes them, so the spec does too. */
    @org.junit.jupiter.api.Test
    void anSshAliasWithUnderscoresIsAnAddress() {
        assertThat(new SpecReader().read("cluster.yaml", VALID.replace("address: 192.168.1.73", "address: gpu_01"))
                .nodes().getFirst().address()).isEqualTo("gpu_01");
    }

    /** YAML merge keys, as people share settings between nodes: the node's own keys win. */
    @org.junit.jupiter.api.Test
    void mergeKeysFillInWhatANodeLeavesOut() {
        var spec = new SpecReader().read("cluster.yaml", """
                cluster: lab
                nodes:
                  - &first
                    name: a
                    address: 10.0.0.1
                    ssh: {user: ops, port: 2222}
                    os_family: rhel
                  - <<: *first
                    name: b
                    address: 10.0.0.2
                  - {<<: [*first], name: c, address: 10.0.0.3, os_family: ubuntu}
                """);
        assertThat(spec.nodes()).extracting(n -> n.name() + " " + n.address() + " " + n.osFamily() + " "
                + n.ssh().user().orElse("-") + " " + n.ssh().port().orElse(0))
                .containsExactly("a 10.0.0.1 RHEL ops 2222", "b 10.0.0.2 RHEL ops 2222", "c 10.0.0.3 UBUNTU ops 2222");
        assertThatThrownBy(() -> new SpecReader().read("cluster.yaml", """
                cluster: lab
                nodes:
                  - &first {name: a, address: 10.0.0.1, adress: x}
                  - {<<: *first, name: b, address: 10.0.0.2}
                """)).hasMessage("cluster.yaml:3: nodes[0].adress: unknown key; did you mean \"address\"?");
        assertThatThrownBy(() -> new SpecReader().read("cluster.yaml", """
                cluster: lab
                nodes:
                  - {<<: 3, name: b, address: 10.0.0.2}
                """)).hasMessage("cluster.yaml:3: nodes[0]: << (a YAML merge key) takes a mapping or a list of "
                + "mappings, such as *defaults; got \"3\"");
    }

    /** Editors on Windows write a byte order mark and CRLF line ends; neither is a mistake. */
    @org.junit.jupiter.api.Test
    void aByteOrderMarkAndCrlfLineEndsRead() {
        String windows = "\uFEFF" + VALID.replace("\n", "\r\n");
        assertThat(new SpecReader().read("cluster.yaml", windows)).isEqualTo(new SpecReader().read("cluster.yaml", VALID));
    }

    /** A spec saved as Latin-1 or UTF-16 is named with its line, not a decoder's "Input length = 1". */
    @org.junit.jupiter.api.Test
    void aFileThatIsNotUtf8SaysSoWithItsLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path latin1 = dir.resolve("latin1.yaml");
        java.nio.file.Files.write(latin1, "cluster: lab\n# n\u0153ud de calcul\nnodes: []\n".replace("\u0153", "\u00e9")
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> new SpecReader().read(latin1))
                .isInstanceOf(RailyardException.Usage.class)
                .hasMessage(latin1 + ":2: not UTF-8 (byte 0xE9); a spec is UTF-8, and this looks like Latin-1 or "
                        + "Windows-1252 text");
        java.nio.file.Path utf16 = dir.resolve("utf16.yaml");
        java.nio.file.Files.write(utf16, ("\uFEFF" + VALID).getBytes(java.nio.charset.StandardCharsets.UTF_16LE));
        assertThatThrownBy(() -> new SpecReader().read(utf16))
                .isInstanceOf(RailyardException.Usage.class)
                .hasMessage(utf16 + ": the file is UTF-16 (its byte order mark says so); a spec is UTF-8");
        java.nio.file.Path bom = dir.resolve("bom.yaml");
        java.nio.file.Files.write(bom, ("\uFEFF" + VALID).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(new SpecReader().read(bom).nodes()).hasSize(2);
    }

    @org.junit.jupiter.api.Test
    void anEmptyFileSaysWhatItNeeds() {
        assertThatThrownBy(() -> new SpecReader().read("cluster.yaml", "# nothing yet\n"))
                .isInstanceOf(RailyardException.Usage.class)
                .hasMessage("cluster.yaml: the spec is empty; it needs at least cluster and nodes");
    }

    @org.junit.jupiter.api.Test
    void aMissingFileSuggestsInit(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.nio.file.Path file = dir.resolve("cluster.yaml");
        assertThatThrownBy(() -> new SpecReader().read(file))
                .isInstanceOf(RailyardException.Usage.class)
                .hasMessage("no spec file at " + file)
                .satisfies(e -> assertThat(((RailyardException) e).hint()).isEqualTo("write a starter with: railyard init --out " + file));
    }
}

package dev.railyard.spec;

import dev.railyard.model.Ipv4Cidr;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.ClusterSpec.Expect;
import dev.railyard.model.ClusterSpec.Gpus;
import dev.railyard.model.ClusterSpec.Node;
import dev.railyard.model.SshOptions;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Maps the composed document to a {@link ClusterSpec}: top level, nodes, GPUs and thresholds. */
final class SpecMapper {

    static final List<String> TOP_KEYS = List.of("cluster", "nodes", "gpus", "networks", "expect", "slurm", "ssh_user",
            "ssh", "agent");
    static final List<String> AGENT_KEYS = List.of("listen");
    static final List<String> NODE_KEYS = List.of("name", "address", "bmc", "gpus", "os_family", "disable_netdevs",
            "ssh", "java");
    static final List<String> SLURM_KEYS = List.of("partition", "gres_type");
    static final List<String> GPU_KEYS = List.of("model", "per_node", "driver", "cuda");
    static final List<String> EXPECT_KEYS = List.of("rdma_bw_efficiency", "rdma_latency_us", "gpu_temp_warn_c",
            "net_buffer_bytes", "nccl_busbw_gbytes_per_s", "storage_seq_mbps", "tcp_gbps", "tcp_latency_us");

    /** A host name label sequence (RFC 1123); also used for node and cluster names. */
    static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
            + "(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*");
    /**
     * What {@code address} may name: DNS names, and ssh_config Host aliases, which people also write with '_'
     * ("Host gpu_01"); never a leading '-' (it would pose as an ssh option).
     */
    static final Pattern ADDRESS_NAME = Pattern.compile("[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
            + "(\\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*");
    private static final Pattern LOOKS_NUMERIC = Pattern.compile("[0-9.]+");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");

    private final String source;

    SpecMapper(String source) {
        this.source = source;
    }

    /** Reads every section, node and network, noting each mistake, and refuses the spec with all of them. */
    ClusterSpec map(SpecNode root) {
        SpecProblems problems = root.problems();
        SpecNode.SpecMap top = root.asMap(TOP_KEYS);
        Optional<String> cluster = problems.attempt(() -> name(top.require("cluster")));
        Set<String> nodeNames = new LinkedHashSet<>();
        int before = problems.count();
        Optional<Map<String, Node>> nodes = problems.attempt(() -> nodes(top.require("nodes"), problems, nodeNames));
        boolean nodesComplete = nodes.isPresent() && problems.count() == before;
        Optional<Optional<Gpus>> gpus = problems.attempt(() -> top.get("gpus").map(this::gpus));
        Optional<List<ClusterSpec.Network>> networks = problems.attempt(() -> top.get("networks")
                .map(n -> new NetworkMapper().map(n, nodeNames, nodesComplete))
                .orElse(List.of()));
        Optional<Expect> expect = problems.attempt(() -> top.get("expect").map(n -> expect(n, problems))
                .orElse(Expect.defaults()));
        Optional<Optional<ClusterSpec.Slurm>> slurm = problems.attempt(() -> top.get("slurm").map(SpecMapper::slurm));
        Optional<Optional<String>> sshUser = problems.attempt(() -> top.get("ssh_user").map(SpecMapper::name));
        Optional<SshOptions> ssh = problems.attempt(() -> top.get("ssh").map(n -> new SshMapper().map(n))
                .orElse(SshOptions.none()));
        Optional<Optional<ClusterSpec.Agent>> agent = problems.attempt(() -> top.get("agent").map(SpecMapper::agent));
        problems.throwIfAny();
        return new ClusterSpec(cluster.orElseThrow(), source, List.copyOf(nodes.orElseThrow().values()),
                gpus.orElseThrow(), networks.orElseThrow(), expect.orElseThrow(), slurm.orElseThrow(),
                sshUser.orElseThrow(), ssh.orElseThrow(), agent.orElseThrow());
    }

    /**
     * The nodes; {@code names} gets every name that reads, also of a node with a mistake elsewhere, so the networks'
     * bindings are checked against the nodes the file means and a node's typo is not reported twice.
     */
    private Map<String, Node> nodes(SpecNode list, SpecProblems problems, Set<String> names) {
        List<SpecNode> items = list.asNamedList("\"- name: NAME\" with \"address: ...\" under it");
        if (items.isEmpty()) throw list.error("needs at least one node");
        Map<String, Node> nodes = new LinkedHashMap<>();
        Map<String, Integer> lines = new LinkedHashMap<>();
        for (SpecNode item : items) {
            problems.attempt(() -> {
                SpecNode.SpecMap m = item.asMap(NODE_KEYS);
                SpecNode nameNode = m.require("name");
                String name = name(nameNode);
                if (lines.containsKey(name)) {
                    throw nameNode.error("duplicate node name \"" + name + "\" (first at line " + lines.get(name) + ")");
                }
                lines.put(name, nameNode.line());
                names.add(name);
                Optional<String> address = problems.attempt(() -> host(m.require("address")));
                Optional<Optional<String>> bmc = problems.attempt(() -> m.get("bmc").map(SpecMapper::host));
                Optional<Optional<Gpus>> gpus = problems.attempt(() -> m.get("gpus").map(this::gpus));
                Optional<ClusterSpec.OsFamily> os = problems.attempt(() -> m.get("os_family")
                        .map(n -> n.asEnum(ClusterSpec.OsFamily.class)).orElse(ClusterSpec.OsFamily.UBUNTU));
                Optional<List<String>> disabled = problems.attempt(() -> m.get("disable_netdevs")
                        .map(SpecMapper::netdevs).orElse(List.of()));
                Optional<SshOptions> ssh = problems.attempt(() -> m.get("ssh").map(n -> new SshMapper().map(n))
                        .orElse(SshOptions.none()));
                Optional<Optional<String>> java = problems.attempt(() -> m.get("java").map(SpecMapper::javaHome));
                if (problems.any()) return null;
                nodes.put(name, new Node(name, address.orElseThrow(), bmc.orElseThrow(), gpus.orElseThrow(),
                        os.orElseThrow(), disabled.orElseThrow(), ssh.orElseThrow(), java.orElseThrow()));
                return null;
            });
        }
        return nodes;
    }

    /** A JDK's home on the node: absolute, and nothing a shell or ssh would read specially. */
    private static String javaHome(SpecNode node) {
        String path = node.asString().strip();
        if (!path.matches("/[A-Za-z0-9_./@+,=:-]*") || path.contains("/../") || path.endsWith("/..")) {
            throw node.error("java must be the absolute path of a JDK 25's home on the node, e.g. "
                    + "/usr/lib/jvm/temurin-25-jdk-arm64, got \"" + path + "\"");
        }
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    private static List<String> netdevs(SpecNode list) {
        return list.asList().stream().map(NetworkMapper::netdev).toList();
    }

    /** agent: {listen: ADDR:PORT}; ":PORT" listens on every address, "[v6]:PORT" on an IPv6 one. */
    private static ClusterSpec.Agent agent(SpecNode node) {
        SpecNode listen = node.asMap(AGENT_KEYS).require("listen");
        String text = listen.asString().strip();
        int colon = text.lastIndexOf(':');
        String host = colon < 0 ? "" : text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        int port = -1;
        if (colon >= 0 && text.substring(colon + 1).matches("[0-9]{1,5}")) port = Integer.parseInt(text.substring(colon + 1));
        if (port < 1 || port > 65535 || host.contains(" ") || !host.contains(":") && host.contains("[")) {
            throw listen.error("\"" + text + "\" is not ADDR:PORT (e.g. 0.0.0.0:9410, 127.0.0.1:9410, :9410 or [::]:9410)");
        }
        return new ClusterSpec.Agent(host, port);
    }

    private static ClusterSpec.Slurm slurm(SpecNode node) {
        SpecNode.SpecMap m = node.asMap(SLURM_KEYS);
        return new ClusterSpec.Slurm(m.get("partition").map(SpecMapper::name).orElse(ClusterSpec.Slurm.DEFAULT_PARTITION),
                m.get("gres_type").map(SpecMapper::name));
    }

    private Gpus gpus(SpecNode node) {
        SpecNode.SpecMap m = node.asMap(GPU_KEYS);
        String model = m.require("model").asString();
        SpecNode perNode = m.require("per_node");
        int count = perNode.asInt();
        if (count < 0 || count > 1024) throw perNode.error(count + " is out of range 0..1024");
        return new Gpus(model, count, m.get("driver").map(SpecNode::asString), m.get("cuda").map(SpecNode::asString));
    }

    private Expect expect(SpecNode node, SpecProblems problems) {
        SpecNode.SpecMap m = node.asMap(EXPECT_KEYS);
        Expect d = Expect.defaults();
        Optional<Double> efficiency = problems.attempt(() -> m.get("rdma_bw_efficiency").map(n -> {
            double v = n.asDouble();
            if (!(v > 0 && v <= 1)) throw n.error(n.asString() + " is not in (0, 1]; write 0.90 for 90 %");
            return v;
        }).orElse(d.rdmaBwEfficiency()));
        Optional<Double> latency = problems.attempt(() -> m.get("rdma_latency_us").map(SpecMapper::positive)
                .orElse(d.rdmaLatencyUs()));
        Optional<Double> temp = problems.attempt(() -> m.get("gpu_temp_warn_c").map(n -> inRange(n, 1, 150))
                .orElse(d.gpuTempWarnC()));
        Optional<Long> buffers = problems.attempt(() -> m.get("net_buffer_bytes").map(n -> {
            long v = n.asLong();
            if (v <= 0) throw n.error(v + " must be greater than 0");
            return v;
        }).orElse(d.netBufferBytes()));
        Optional<Optional<Double>> busbw = problems.attempt(() -> m.get("nccl_busbw_gbytes_per_s").map(SpecMapper::positive));
        Optional<Optional<Double>> storage = problems.attempt(() -> m.get("storage_seq_mbps").map(SpecMapper::positive));
        Optional<Optional<Double>> tcp = problems.attempt(() -> m.get("tcp_gbps").map(SpecMapper::positive));
        Optional<Optional<Double>> tcpLatency = problems.attempt(() -> m.get("tcp_latency_us").map(SpecMapper::positive));
        if (problems.any()) return d;
        return new Expect(efficiency.orElseThrow(), latency.orElseThrow(), temp.orElseThrow(), buffers.orElseThrow(),
                busbw.orElseThrow(), storage.orElseThrow(), tcp.orElseThrow(), tcpLatency.orElseThrow());
    }

    static double positive(SpecNode n) {
        double v = n.asDouble();
        if (v <= 0) throw n.error(n.asString() + " must be greater than 0");
        return v;
    }

    private static double inRange(SpecNode n, double lo, double hi) {
        double v = n.asDouble();
        if (v < lo || v > hi) throw n.error(n.asString() + " is out of range " + (int) lo + ".." + (int) hi);
        return v;
    }

    /** A node, network or cluster name: letters, digits, '.', '_' and '-', as Slurm and ssh accept. */
    static String name(SpecNode n) {
        String v = n.asString();
        if (!NAME.matcher(v).matches()) {
            throw n.error("\"" + v + "\" is not a valid name (letters, digits, '.', '_', '-'; at most 63)"
                    + (v.contains("[") || v.contains("{") ? "; " + NO_RANGES : ""));
        }
        return v;
    }

    /** A management or BMC address: an IPv4 address, or a host name the machine running railyard can resolve. */
    static String host(SpecNode n) {
        String v = n.asString();
        if (LOOKS_NUMERIC.matcher(v).matches()) {
            if (Ipv4Cidr.parseAddress(v).isEmpty()) throw n.error("\"" + v + "\" is not an IPv4 address");
            if (Ipv4Cidr.zeroPadded(v)) {
                throw n.error(NetworkMapper.zeroPadded(v, Ipv4Cidr.format(Ipv4Cidr.parseAddress(v).get())));
            }
        } else if (!ADDRESS_NAME.matcher(v).matches()) {
            throw n.error(notAHost(v));
        }
        return v;
    }

    /** Why {@code v} is no address, for the forms people carry over from ssh, URLs and other tools' host lists. */
    private static String notAHost(String v) {
        Matcher userAt = USER_AT.matcher(v);
        if (userAt.matches()) {
            return "\"" + v + "\" has a user name in it; write address: " + userAt.group(2)
                    + " and the user as ssh: {user: " + userAt.group(1) + "} (this node's or the top-level ssh section)";
        }
        Matcher hostPort = HOST_PORT.matcher(v);
        if (hostPort.matches()) {
            return "\"" + v + "\" has a port in it; write address: " + hostPort.group(1)
                    + " and the port as ssh: {port: " + hostPort.group(2) + "} (this node's or the top-level ssh section)";
        }
        if (v.indexOf(':') != v.lastIndexOf(':') || v.startsWith("[")) {
            return "\"" + v + "\" looks like an IPv6 address; node addresses are IPv4 or host names: give the node a "
                    + "name in your ssh_config (Host NAME, HostName " + v.replaceAll("^\\[|\\]$", "")
                    + ") or /etc/hosts and write that name here";
        }
        if (v.contains("[") || v.contains("{")) return "\"" + v + "\" is not a host name; " + NO_RANGES;
        return "\"" + v + "\" is neither an IPv4 address nor a host name";
    }

    private static final Pattern USER_AT = Pattern.compile("([^@\\s]+)@([^@\\s]+)");
    private static final Pattern HOST_PORT = Pattern.compile("([^:\\s\\[\\]]+):([0-9]{1,5})");
    private static final String NO_RANGES = "ranges such as node[01-04] or node{1..4} are not expanded: list each node";
}

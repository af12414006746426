package dev.railyard.spec;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.ClusterSpec.Binding;
import dev.railyard.model.ClusterSpec.Expect;
import dev.railyard.model.ClusterSpec.Gpus;
import dev.railyard.model.ClusterSpec.Network;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Writes a spec as commented YAML that {@link SpecReader} reads back. Written by hand rather than by a YAML
 * emitter because the comments (what each section means, what is left TODO) are the point of a starter.
 */
public final class SpecWriter {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z][A-Za-z0-9._/-]*|[0-9][0-9./]*");
    private static final List<String> YAML_WORDS =
            List.of("true", "false", "yes", "no", "on", "off", "null", "y", "n");

    /** What the starter guessed, by key ("cluster", "node.address", ...): written as a comment on the value's line. */
    private final Map<String, String> notes;

    public SpecWriter() {
        this(Map.of());
    }

    private SpecWriter(Map<String, String> notes) {
        this.notes = Map.copyOf(notes);
    }

    /** A spec with section comments only. */
    public String write(ClusterSpec spec) {
        return write(spec, List.of(), false, "");
    }

    /** A starter: header with the TODO list, TODO comments where the other nodes go, and its guesses marked. */
    public String writeStarter(StarterSpec starter, String origin) {
        return new SpecWriter(starter.notes()).write(starter.spec(), starter.todos(), true, origin);
    }

    private String note(String key) {
        String n = notes.get(key);
        return n == null ? "" : "  # " + n;
    }

    private String write(ClusterSpec spec, List<String> todos, boolean starter, String origin) {
        List<String> out = new ArrayList<>();
        out.add("# Railyard cluster spec: what this cluster should look like. Format: docs/spec.md.");
        if (starter) {
            out.add("# Written by 'railyard init' from " + origin + ". Fill in the TODOs, then run:");
            out.add("#   railyard check --spec cluster.yaml");
            for (String todo : todos) out.add("# TODO: " + todo);
        }
        out.add("");
        out.add("# The cluster's name, used in reports and rendered configuration.");
        out.add("cluster: " + scalar(spec.cluster()) + note("cluster"));
        out.add("");
        nodes(spec, starter, out);
        spec.gpus().ifPresentOrElse(g -> gpus(g, out), () -> {
            if (!starter) return;
            out.add("# The GPUs each node should have, as nvidia-smi -L names them, e.g.:");
            out.add("# gpus: {model: \"Tesla V100-PCIE-16GB\", per_node: 2}");
            out.add("");
        });
        networks(spec, starter, out);
        bringUp(spec, out);
        expect(spec.expect(), out, starter);
        return String.join("\n", out) + "\n";
    }

    private void nodes(ClusterSpec spec, boolean starter, List<String> out) {
        out.add("# Every machine. address: how railyard reaches it (management IPv4 or host name);");
        out.add("# bmc: its IPMI/BMC address (optional); gpus: the node's own GPUs when they differ from 'gpus'.");
        out.add("nodes:");
        for (ClusterSpec.Node n : spec.nodes()) {
            out.add("  - name: " + scalar(n.name()) + note("node.name"));
            out.add("    address: " + scalar(n.address()) + note("node.address"));
            n.bmc().ifPresentOrElse(b -> out.add("    bmc: " + scalar(b)),
                    () -> {
                        if (starter) out.add("    # bmc: 192.0.2.10");
                    });
            n.gpus().ifPresent(g -> out.add("    gpus: {model: " + quoted(g.model()) + ", per_node: " + g.perNode() + "}"));
            if (n.osFamily() != ClusterSpec.OsFamily.UBUNTU) out.add("    os_family: " + lower(n.osFamily()));
            if (!n.disableNetdevs().isEmpty()) {
                out.add("    disable_netdevs: [" + String.join(", ", n.disableNetdevs().stream().map(SpecWriter::scalar).toList()) + "]");
            }
            n.java().ifPresent(j -> out.add("    java: " + scalar(j)));
        }
        if (starter) {
            out.add("  # TODO: add the other nodes, one entry each:");
            out.add("  # - name: node2");
            out.add("  #   address: 192.0.2.12");
        }
        out.add("");
    }

    private void gpus(Gpus g, List<String> out) {
        out.add("# The GPUs each node should have (checks gpu.count, gpu.driver). driver and cuda are optional pins.");
        out.add("gpus:");
        out.add("  model: " + quoted(g.model()) + note("gpus.model"));
        out.add("  per_node: " + g.perNode());
        g.driver().ifPresent(d -> out.add("  driver: " + quoted(d)));
        g.cuda().ifPresent(c -> out.add("  cuda: " + quoted(c)));
        out.add("");
    }

    private void networks(ClusterSpec spec, boolean starter, List<String> out) {
        out.add("# Networks. role: management | compute | storage. link_layer: ethernet (RoCE) | infiniband.");
        out.add("# rate_gbps: link rate in Gb/s. ipoib_mode: datagram | connected (InfiniBand only).");
        out.add("# bind: per node, the netdev, the RDMA device:port and the address that carry this network.");
        out.add("networks:");
        if (spec.networks().isEmpty()) out.add("  []");
        for (Network n : spec.networks()) {
            String comment = notes.get("network." + n.name());
            if (comment != null) out.add("  # " + n.name() + ": " + comment);
            out.add("  - name: " + scalar(n.name()));
            out.add("    role: " + lower(n.role()));
            n.linkLayer().ifPresent(l -> out.add("    link_layer: " + lower(l)));
            n.rateGbps().ifPresent(r -> out.add("    rate_gbps: " + number(r)));
            n.mtu().ifPresent(m -> out.add("    mtu: " + m + note("network." + n.name() + ".mtu")));
            n.subnet().ifPresent(s -> out.add("    subnet: " + s));
            n.ipoibMode().ifPresent(m -> out.add("    ipoib_mode: " + lower(m)));
            n.subnetManager().ifPresent(m -> out.add("    subnet_manager: " + scalar(m)));
            if (!n.bind().isEmpty()) {
                out.add("    bind:");
                for (Map.Entry<String, Binding> b : n.bind().entrySet()) {
                    out.add("      " + scalar(b.getKey()) + ": " + binding(b.getValue()));
                }
                if (starter) out.add("      # TODO: bind the other nodes, e.g.  node2: {netdev: ..., address: ...}");
            }
        }
        out.add("");
    }

    /** The keys only render reads: Slurm's partition and GRES type, the ssh user. */
    private static void bringUp(ClusterSpec spec, List<String> out) {
        spec.slurm().ifPresent(s -> {
            out.add("# Slurm lines railyard render writes (partition name, GRES type).");
            out.add("slurm:");
            out.add("  partition: " + scalar(s.partition()));
            s.gresType().ifPresent(g -> out.add("  gres_type: " + scalar(g)));
            out.add("");
        });
        spec.sshUser().ifPresent(u -> {
            out.add("# The user in rendered ssh_config entries.");
            out.add("ssh_user: " + scalar(u));
            out.add("");
        });
    }

    private static String binding(Binding b) {
        List<String> parts = new ArrayList<>();
        parts.add("netdev: " + scalar(b.netdev()));
        b.rdma().ifPresent(r -> parts.add("rdma: " + quoted(r.toString())));
        b.address().ifPresent(a -> parts.add("address: " + a));
        return "{" + String.join(", ", parts) + "}";
    }

    private void expect(Expect e, List<String> out, boolean starter) {
        out.add("# Pass/fail thresholds. rdma_bw_efficiency: share of the line rate RDMA bandwidth must reach;");
        out.add("# nccl_busbw_gbytes_per_s: all-reduce busbw floor in GB/s as nccl-tests prints it; storage_seq_mbps: MB/s per node.");
        if (starter) {
            out.add("# These are railyard's defaults, not measured on this node: set your own (the commented keys have no");
            out.add("# default and are only judged once set).");
        }
        out.add("expect:");
        out.add("  rdma_bw_efficiency: " + number(e.rdmaBwEfficiency()));
        out.add("  rdma_latency_us: " + number(e.rdmaLatencyUs()));
        out.add("  gpu_temp_warn_c: " + number(e.gpuTempWarnC()));
        out.add("  net_buffer_bytes: " + e.netBufferBytes());
        e.ncclBusbwGBps().ifPresentOrElse(v -> out.add("  nccl_busbw_gbytes_per_s: " + number(v)),
                () -> out.add("  # nccl_busbw_gbytes_per_s: 12"));
        e.storageSeqMBps().ifPresentOrElse(v -> out.add("  storage_seq_mbps: " + number(v)),
                () -> out.add("  # storage_seq_mbps: 1500"));
    }

    static String number(double d) {
        return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    /** Plain when YAML would read it back as the same text, else double-quoted. */
    static String scalar(String s) {
        if (PLAIN.matcher(s).matches() && !YAML_WORDS.contains(s.toLowerCase(Locale.ROOT))) return s;
        return quoted(s);
    }

    static String quoted(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) b.append(String.format("\\x%02x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }
}

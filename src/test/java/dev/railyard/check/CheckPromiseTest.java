package dev.railyard.check;

import dev.railyard.check.rules.RdmaCountersRule;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Severity;
import dev.railyard.platform.ReadLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "A PASS is a promise", property-style: for every node check, every input file (or nvidia-smi -q -x element) its
 * findings rest on, and every way real machines garble a reading, a real tree whose finding PASSes is mutated in
 * exactly that input; the finding must then not PASS (UNKNOWN, or WARN/FAIL, with the reason), nothing may throw,
 * and the finding must not silently vanish. The inputs are the paths the collectors actually read on that tree
 * (a {@link ReadLog}), attributed to checks by the path patterns below; a read path no pattern claims is listed in
 * the tally so a new input does not go unaudited.
 *
 * <p>TRUNCATED ("41943" of "4194304") and CRLF can read as a plausible value; a PASS on them is counted, not failed.
 */
class CheckPromiseTest {

    enum Mutation {
        MISSING, EMPTY, WHITESPACE, NOT_AVAILABLE, UNKNOWN_WORD, NULL_WORD, TRUNCATED, UNITS, TRAILING_JUNK, NEGATIVE,
        HUGE, CRLF, DIRECTORY, DANGLING, UNREADABLE;

        boolean lenient() {
            return this == TRUNCATED || this == CRLF;
        }

        /**
         * On a document of many lines (a limits table, a kernel log) these touch only its first or last line, and
         * the line the check reads stands whole: a PASS there may be true.
         */
        boolean edgeOnly() {
            return this == UNITS || this == NEGATIVE || this == TRAILING_JUNK || this == TRUNCATED;
        }

        boolean fileOnly() {
            return this == DIRECTORY || this == DANGLING || this == UNREADABLE;
        }
    }

    /**
     * One input of a check: a root-relative path as a reader asks for it; the subject template ($1, $2 from the
     * pattern's groups) says which findings rest on it. An element path ("ecc_errors>volatile>dram_uncorrectable")
     * narrows a document to the first GPU's element.
     */
    record Input(String id, Pattern path, String subject, String element, boolean gpuFunction, String unlessTreeHas,
                 boolean keepsSubjectOnly) {
        Input(String id, Pattern path, String subject, String element, boolean gpuFunction, String unlessTreeHas) {
            this(id, path, subject, element, gpuFunction, unlessTreeHas, false);
        }

        static Input of(String id, String regex, String subject) {
            return new Input(id, Pattern.compile(regex), subject, null, false, null);
        }

        static Input xml(String id, String element) {
            return new Input(id, Pattern.compile("railyard/nvidia-smi-q\\.xml"), "GPU0 (", element, false, null);
        }
    }

    /**
     * Mutations that yield a real value, not a garbled one: "unknown" is the kernel's IF_OPER_UNKNOWN, which drivers
     * that do not track the link report while passing traffic (ip and the kernel treat it as up).
     */
    private static final Map<Pattern, Mutation> REAL_VALUES = Map.of(Pattern.compile("sys/class/net/[^/]+/operstate"), Mutation.UNKNOWN_WORD);

    /**
     * Elements of free text with no format to hold them to: "NVIDIA H200 kB" reads like a longer SKU name ("NVIDIA
     * H200 NVL"), which gpu.count matches by the spec's model as a substring.
     */
    private static final Set<String> FREE_TEXT = Set.of("product_name");

    /** Inputs read as documents of many lines, not one value. */
    private static final Pattern DOCUMENTS = Pattern.compile("proc/self/limits|proc/modules|railyard/dmesg\\.txt");

    private static final String IB = "sys/class/infiniband/([^/]+)/ports/(\\d+)/";
    private static final String NET = "sys/class/net/([^/]+)/";
    private static final String RDMA_PORT = "$1:$2";
    private static final String BDF = "[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]";

    static final List<Input> INPUTS = inputs();

    private static List<Input> inputs() {
        List<Input> in = new ArrayList<>(List.of(
                Input.of("host.memlock", "proc/self/limits", ""),
                Input.of("host.net.buffers", "proc/sys/net/core/(rmem_max|wmem_max)", "net.core.$1"),
                Input.of("host.cpu.governor", "sys/devices/system/cpu/cpu\\d+/cpufreq/scaling_governor", ""),
                Input.of("host.module.peermem", "proc/modules", ""),
                Input.of("gpu.xid", "railyard/dmesg\\.txt", ""),
                Input.of("rdma.port.state", IB + "state", RDMA_PORT),
                Input.of("rdma.port.phys", IB + "phys_state", RDMA_PORT),
                Input.of("rdma.port.rate", IB + "rate", RDMA_PORT),
                Input.of("rdma.ib.sm", IB + "sm_lid", RDMA_PORT),
                Input.of("rdma.ib.sm", IB + "link_layer", RDMA_PORT),
                Input.of("rdma.roce.gid", IB + "link_layer", RDMA_PORT),
                // the GID is matched by the address it carries, not by gid_attrs/ndevs; the address is the spec's
                Input.of("rdma.roce.gid", IB + "(?:gids|gid_attrs/types)/(\\d+)", RDMA_PORT + " GID index $3"),
                Input.of("rdma.counters", IB + "counters/(?:" + String.join("|", RdmaCountersRule.ERRORS) + ")", RDMA_PORT),
                Input.of("rdma.netdev.mtu", NET + "mtu", "$1"),
                Input.of("rdma.netdev.address", NET + "operstate", "$1"),
                Input.of("rdma.netdev.address", "railyard/ip-address\\.json", ""),
                Input.of("rdma.lag", NET + "(?:master|bonding/slaves)", "$1"),
                Input.of("net.carrier", NET + "carrier_changes", "$1"),
                // PCI sysfs is where a GPU's link is read when no nvidia-smi -q -x was captured; with one, it is read there
                new Input("gpu.pcie.link", Pattern.compile("sys/(?:devices/.*|bus/pci/devices)/(" + BDF
                        + ")/(?:current|max)_link_(?:speed|width)"), "($1)", null, false, "railyard/nvidia-smi-q.xml"),
                // a GPU's own identity on the bus: the GPU count, and the rails per GPU, rest on it
                // which PCI function an RDMA device sits on: the driver check and the GPU-NIC distance rest on it
                Input.of("host.module.rdma", "sys/class/infiniband/[^/]+/device", ""),
                Input.of("topo.gpu-nic.affinity", "sys/class/infiniband/[^/]+/device", ""),
                // a NIC's identity decides whether it is judged at all; its PASS rests on the RDMA device registered on
                // the function, so a garbled vendor or class must not drop the NIC, and may leave that PASS standing
                new Input("host.module.rdma", Pattern.compile("sys/bus/pci/devices/(" + BDF + ")/(?:vendor|class)"), "$1 (",
                        null, false, null, true),
                new Input("gpu.count", Pattern.compile("sys/bus/pci/devices/(" + BDF + ")/(?:vendor|class)"), "", null, true, null),
                new Input("topo.rail", Pattern.compile("sys/bus/pci/devices/(" + BDF + ")/(?:vendor|class)"), "", null, true, null)));
        // gpu.pcie.link has PCI sysfs too: without the document the link is still read, from there
        for (String id : List.of("gpu.count", "gpu.driver", "gpu.ecc.uncorrected", "gpu.temperature", "gpu.throttle",
                "gpu.nvlink")) {
            in.add(Input.of(id, "railyard/nvidia-smi-q\\.xml", ""));
        }
        in.addAll(List.of(
                new Input("gpu.driver", Pattern.compile("railyard/nvidia-smi-q\\.xml"), "", "driver_version", false, null),
                new Input("gpu.driver", Pattern.compile("railyard/nvidia-smi-q\\.xml"), "", "cuda_version", false, null),
                new Input("gpu.count", Pattern.compile("railyard/nvidia-smi-q\\.xml"), "", "product_name", false, null),
                Input.xml("gpu.temperature", "temperature>gpu_temp"),
                Input.xml("gpu.ecc.uncorrected", "ecc_errors>volatile>dram_uncorrectable"),
                Input.xml("gpu.ecc.uncorrected", "ecc_errors>aggregate>dram_uncorrectable"),
                Input.xml("gpu.ecc.uncorrected", "ecc_errors>volatile>sram_uncorrectable_parity"),
                Input.xml("gpu.ecc.uncorrected", "ecc_errors>volatile>sram_uncorrectable_secded"),
                Input.xml("gpu.ecc.uncorrected", "remapped_rows>remapped_row_unc"),
                Input.xml("gpu.ecc.uncorrected", "remapped_rows>remapped_row_pending"),
                Input.xml("gpu.ecc.uncorrected", "remapped_rows>remapped_row_failure"),
                Input.xml("gpu.throttle", "clocks_event_reasons>clocks_event_reason_hw_slowdown"),
                Input.xml("gpu.throttle", "clocks_event_reasons>clocks_event_reason_hw_thermal_slowdown"),
                Input.xml("gpu.throttle", "clocks_event_reasons>clocks_event_reason_hw_power_brake_slowdown"),
                Input.xml("gpu.throttle", "clocks_event_reasons>clocks_event_reason_sw_thermal_slowdown"),
                Input.xml("gpu.pcie.link", "pci_gpu_link_info>current_link_gen"),
                Input.xml("gpu.pcie.link", "pci_gpu_link_info>max_link_gen"),
                Input.xml("gpu.pcie.link", "pci_gpu_link_info>current_link_width"),
                Input.xml("gpu.pcie.link", "pci_gpu_link_info>max_link_width")));
        return List.copyOf(in);
    }

    @TempDir
    Path dir;

    record Base(String name, ReaderMutationFuzzTest.TreeBuilder builder, Optional<ClusterSpec> spec) {}

    /** The fuzzer's eight real trees, plus the same trees set to pass the checks none of them passes as captured. */
    static List<Base> bases() {
        List<Base> out = new ArrayList<>();
        for (ReaderMutationFuzzTest.Base b : ReaderMutationFuzzTest.bases()) out.add(new Base(b.name(), b.builder(), b.spec()));
        ClusterSpec s1 = CheckTrees.example("s1-homelab-v100-roce.yaml");
        out.add(new Base("h200x4-capture, net buffers at 256 MiB", d -> {
            Path t = ReaderMutationFuzzTest.bases().get(3).builder().build(d);
            CheckTrees.write(t, "proc/sys/net/core/rmem_max", "268435456\n");
            CheckTrees.write(t, "proc/sys/net/core/wmem_max", "268435456\n");
            return t;
        }, Optional.empty()));
        out.add(new Base("h200x4-capture with a spec for its 4 H200s, driver and CUDA",
                ReaderMutationFuzzTest.bases().get(3).builder(),
                Optional.of(new dev.railyard.spec.SpecReader().read("h200x4.yaml", """
                        cluster: h200x4
                        nodes:
                          - {name: gpuserver1, address: 192.0.2.2}
                        gpus: {model: "NVIDIA H200", per_node: 4, driver: "580.159.04", cuda: "13.0"}
                        """))));
        out.add(new Base("node_exporter host, governor performance", d -> {
            CheckTrees.host(d);
            try (var cpus = Files.newDirectoryStream(d.resolve("sys/devices/system/cpu"), "cpu[0-9]*")) {
                for (Path cpu : cpus) {
                    Path g = cpu.resolve("cpufreq/scaling_governor");
                    if (Files.isRegularFile(g)) Files.writeString(g, "performance\n");
                }
            }
            return d;
        }, Optional.empty()));
        out.add(new Base("gpud-h100, subnet manager at LID 1", d -> {
            CheckTrees.h100(d);
            for (int i : new int[]{0, 1}) CheckTrees.write(d, "sys/class/infiniband/mlx5_" + i + "/ports/1/sm_lid", "0x1\n");
            return d;
        }, Optional.empty()));
        out.add(new Base("seed000, ens6d1 at MTU 9000 with its address", d -> {
            CheckTrees.seed000(d);
            CheckTrees.limits(d, "26231");
            CheckTrees.write(d, CheckTrees.ENS6D1 + "/mtu", "9000\n");
            CheckTrees.write(d, "railyard/ip-address.json", """
                    [ {"ifname": "ens6d1", "addr_info": [ {"family": "inet", "local": "10.0.0.1", "prefixlen": 24} ]} ]
                    """);
            return d;
        }, Optional.of(s1)));
        out.add(new Base("node_exporter PCI bus, a GPU and gpud's mlx5_0 behind one switch, nvidia_peermem loaded", d -> {
            CheckTrees.pci(d);
            new dev.railyard.collect.PciTree(d).gpu(GPU0, 0).nic(NIC0, 0);
            Path ib = CheckTrees.h100(Files.createDirectories(d.resolve("gpud"))).resolve("sys/class/infiniband/mlx5_0");
            Files.createDirectories(d.resolve("sys/class/infiniband"));
            Files.move(ib, d.resolve("sys/class/infiniband/mlx5_0"));
            TreeMutation.deleteRecursively(d.resolve("gpud"));
            TreeMutation.deleteRecursively(d.resolve("sys/class/infiniband/mlx5_0/device"));
            CheckTrees.link(d, "sys/class/infiniband/mlx5_0/device", "../../../bus/pci/devices/0000:06:00.0");
            // the h200x4 capture's module list, with the line nvidia-peermem adds
            CheckTrees.write(d, "proc/modules", Files.readString(Path.of("src/test/resources/trees/h200x4-capture/proc/modules"))
                    + "nvidia_peermem 16384 0 - Live 0xffffffffc0a8f000 (O)\n");
            return d;
        }, Optional.of(CheckTrees.oneRailSpec())));
        return out;
    }

    private static final String GPU0 = "pci0000:00/0000:00:01.1/0000:02:00.0/0000:03:00.0/0000:04:00.0";
    private static final String NIC0 = "pci0000:00/0000:00:01.1/0000:02:00.0/0000:03:02.0/0000:06:00.0";

    private static final class Tally {
        final Map<Mutation, int[]> byMutation = new EnumMap<>(Mutation.class);
        final Map<String, int[]> byCheck = new TreeMap<>();
        final List<String> passes = new ArrayList<>();
        final List<String> lenientPasses = new ArrayList<>();
        final List<String> crashes = new ArrayList<>();
        final List<String> vanished = new ArrayList<>();
        final List<String> unnamed = new ArrayList<>();
        final List<String> elsewhere = new ArrayList<>();
        final Set<String> unclaimed = new java.util.TreeSet<>();
        int cases;
        int strictCases;
        int lenientCases;

        void count(String id, Mutation m, boolean pass) {
            count(id, m, pass, false);
        }

        void count(String id, Mutation m, boolean pass, boolean lenient) {
            cases++;
            if (pass && lenient) lenientCases++;
            else if (pass) strictCases++;
            int[] a = byMutation.computeIfAbsent(m, k -> new int[2]);
            int[] c = byCheck.computeIfAbsent(id, k -> new int[2]);
            a[0]++;
            c[0]++;
            if (pass) {
                a[1]++;
                c[1]++;
            }
        }
    }

    @Test
    void aGarbledOrMissingInputNeverLeavesAPass() throws Exception {
        Tally t = new Tally();
        int b = 0;
        for (Base base : bases()) {
            Path tree = base.builder().build(Files.createDirectories(dir.resolve("tree" + b++)));
            ReadLog log = ReadLog.create();
            NodeInventory inv = CheckTrees.collect(tree, log);
            List<Finding> baseline = CheckRunner.nodeChecks().run(new CheckInput(inv, base.spec(), CheckTrees.NODE));
            Map<String, String> files = readFiles(tree, log);
            Set<String> gpus = inv.pciDevices().stream().filter(d -> d.isNvidiaGpu()).map(d -> d.address())
                    .collect(java.util.stream.Collectors.toSet());
            for (Map.Entry<String, String> file : files.entrySet()) {
                boolean claimed = false;
                for (Input input : INPUTS) {
                    Matcher matcher = input.path().matcher(file.getKey());
                    if (!matcher.matches()) continue;
                    if (input.gpuFunction() && !gpus.contains(matcher.group(1))) continue;
                    if (input.unlessTreeHas() != null && Files.exists(tree.resolve(input.unlessTreeHas()))) continue;
                    claimed = true;
                    String subject = matcher.replaceFirst(input.subject());
                    List<Finding> passing = baseline.stream().filter(f -> f.id().equals(input.id())
                            && f.severity() == Severity.PASS && (f.subject() + " " + f.observed()).contains(subject)).toList();
                    if (passing.isEmpty()) continue;
                    for (Mutation m : Mutation.values()) {
                        if (input.element() != null && m.fileOnly()) continue;
                        String where = base.name() + " | " + input.id() + " | " + file.getKey()
                                + (input.element() == null ? "" : "#" + input.element()) + " | " + m;
                        FileState saved = FileState.save(tree, file.getValue());
                        String unreadable = saved.unreadableList(tree);
                        try {
                            if (!mutate(tree, file.getKey(), file.getValue(), input.element(), m)) continue;
                            List<Finding> after;
                            try {
                                after = CheckRunner.nodeChecks().run(new CheckInput(CheckTrees.collect(tree), base.spec(), CheckTrees.NODE));
                            } catch (RuntimeException | Error e) {
                                t.count(input.id(), m, false);
                                t.crashes.add(where + ": " + e);
                                continue;
                            }
                            boolean pass = false;
                            boolean lenientOnly = true;
                            for (Finding was : passing) {
                                Optional<Finding> now = after.stream()
                                        .filter(f -> f.id().equals(was.id()) && f.subject().equals(was.subject())).findFirst();
                                if (now.isEmpty() && !saidElsewhere(baseline, after, was.id())) {
                                    t.vanished.add(where + ": " + was.subject() + " no longer judged");
                                } else if (now.isPresent() && now.get().severity() == Severity.PASS
                                        && !judgedApart(after, was) && saidElsewhere(baseline, after, was.id())
                                        && !input.keepsSubjectOnly()) {
                                    // gpu.count's "4 GPUs" stands on the PCI bus; the GPU whose model could not
                                    // be read is UNKNOWN under its own subject
                                    t.elsewhere.add(where + ": " + was.subject() + " PASS " + now.get().observed());
                                } else if (now.isPresent() && now.get().severity() == Severity.PASS && !judgedApart(after, was)
                                        && !input.keepsSubjectOnly()) {
                                    pass = true;
                                    boolean lenient = m.lenient() || m.edgeOnly() && input.element() == null
                                            && DOCUMENTS.matcher(file.getKey()).matches()
                                            || REAL_VALUES.entrySet().stream().anyMatch(e -> e.getValue() == m
                                            && e.getKey().matcher(file.getKey()).matches())
                                            || m.edgeOnly() && input.element() != null && FREE_TEXT.contains(input.element());
                                    lenientOnly &= lenient;
                                    (lenient ? t.lenientPasses : t.passes).add(where + ": " + was.subject() + " PASS "
                                            + now.get().observed());
                                } else if (now.isPresent() && now.get().severity() == Severity.UNKNOWN && !namesInput(now.get(), file.getKey(), file.getValue(), input)) {
                                    t.unnamed.add(where + ": " + now.get().observed());
                                }
                            }
                            t.count(input.id(), m, pass, lenientOnly);
                        } finally {
                            saved.restore(tree, unreadable);
                        }
                    }
                }
                if (!claimed) t.unclaimed.add(file.getKey());
            }
            assertThat(CheckRunner.nodeChecks().run(new CheckInput(CheckTrees.collect(tree), base.spec(), CheckTrees.NODE)))
                    .as(base.name() + " restored").isEqualTo(baseline);
        }
        print(t);
        List<String> broken = new ArrayList<>(t.passes);
        broken.addAll(t.crashes);
        broken.addAll(t.vanished);
        assertThat(broken).as("garbled or missing inputs that still PASS, throw, or drop the finding").isEmpty();
    }

    /**
     * The cluster checks that compare node facts, on the homelab's two servers (each the tuned homelab tree, as the spec
     * binds them): one node's input garbled must not leave the cluster finding PASS. The facts go through the
     * inventory JSON that validate ships between nodes.
     */
    @Test
    void aGarbledNodeFactNeverLeavesAClusterPass() throws Exception {
        ClusterSpec spec = CheckTrees.example("s1-homelab-v100-roce.yaml");
        Base base = bases().stream().filter(b -> b.name().startsWith("seed000, ens6d1")).findFirst().orElseThrow();
        Path tree = base.builder().build(Files.createDirectories(dir.resolve("n1")));
        dev.railyard.model.NodeFacts other = facts("gpuserver2", tree);
        List<Finding> baseline = cluster(spec, facts("gpuserver1", tree), other);
        List<Input> inputs = List.of(
                // rail1 binds ens6d1 on gpuserver1; its finding is one for the network ("all 2 ends at MTU 9000")
                Input.of("cluster.mtu", "sys/class/net/ens6d1/mtu", "rail1"),
                Input.of("cluster.versions", "sys/class/infiniband/([^/]+)/fw_ver", "$1 firmware"),
                Input.of("cluster.addresses", "railyard/ip-address\\.json", ""));
        // cluster.network.separation judges the spec's subnets and bindings alone: no node fact is its input
        ReadLog log = ReadLog.create();
        CheckTrees.collect(tree, log);
        int cases = 0;
        Map<String, Integer> byCheck = new TreeMap<>();
        List<String> passes = new ArrayList<>();
        for (Map.Entry<String, String> file : readFiles(tree, log).entrySet()) {
            for (Input input : inputs) {
                Matcher matcher = input.path().matcher(file.getKey());
                if (!matcher.matches()) continue;
                String subject = matcher.replaceFirst(input.subject());
                List<Finding> passing = baseline.stream().filter(f -> f.id().equals(input.id())
                        && f.severity() == Severity.PASS && f.subject().contains(subject)).toList();
                if (passing.isEmpty()) continue;
                for (Mutation m : Mutation.values()) {
                    if (m.lenient()) continue;
                    FileState saved = FileState.save(tree, file.getValue());
                    try {
                        if (!mutate(tree, file.getKey(), file.getValue(), null, m)) continue;
                        cases++;
                        byCheck.merge(input.id(), 1, Integer::sum);
                        List<Finding> after = cluster(spec, facts("gpuserver1", tree), other);
                        for (Finding was : passing) {
                            boolean stillPass = after.stream().anyMatch(f -> f.id().equals(was.id())
                                    && f.subject().equals(was.subject()) && f.severity() == Severity.PASS);
                            boolean said = after.stream().anyMatch(f -> f.id().equals(was.id()) && f.severity() != Severity.PASS
                                    && !baseline.contains(f));
                            if (stillPass || !said) passes.add(input.id() + " | " + file.getKey() + " | " + m + ": "
                                    + was.subject() + (stillPass ? " still PASS" : " vanished"));
                        }
                    } finally {
                        saved.restore(tree, null);
                    }
                }
            }
        }
        System.out.printf("check promise (cluster): %d cluster check x input x mutation cases, %d PASS or vanished, by check %s%n",
                cases, passes.size(), byCheck);
        passes.forEach(p -> System.out.println("  PASS  " + p));
        assertThat(cases).as("cluster cases").isPositive();
        assertThat(passes).as("garbled node facts that leave a cluster PASS").isEmpty();
    }

    private static dev.railyard.model.NodeFacts facts(String node, Path tree) throws IOException {
        NodeInventory inv = CheckTrees.collect(tree);
        return dev.railyard.cluster.NodeFactsReader.read(node, dev.railyard.report.Json.mapper().readTree(dev.railyard.report.Json.write(inv)));
    }

    private static List<Finding> cluster(ClusterSpec spec, dev.railyard.model.NodeFacts... facts) {
        Map<String, dev.railyard.model.NodeFacts> m = new LinkedHashMap<>();
        for (var f : facts) m.put(f.node(), f);
        ClusterInput in = new ClusterInput(spec, m, Map.of());
        return ClusterCheck.all().stream().flatMap(c -> c.run(in).stream()).toList();
    }

    private static void print(Tally t) {
        System.out.printf("check promise: %d check x input x mutation cases, %d PASS on a garbled/missing input"
                        + " (+%d on a plausible value: TRUNCATED/CRLF, an edge of a document, a real kernel value),"
                        + " %d threw, %d findings vanished, %d UNKNOWN not naming the input%n",
                t.cases, t.strictCases, t.lenientCases, t.crashes.size(), t.vanished.size(), t.unnamed.size());
        StringBuilder s = new StringBuilder("check promise by mutation (cases/PASS):");
        t.byMutation.forEach((k, v) -> s.append(' ').append(k).append('=').append(v[0]).append('/').append(v[1]));
        s.append("\ncheck promise by check (cases/PASS):");
        t.byCheck.forEach((k, v) -> s.append(' ').append(k).append('=').append(v[0]).append('/').append(v[1]));
        System.out.println(s);
        t.passes.forEach(p -> System.out.println("  PASS  " + p));
        t.crashes.forEach(p -> System.out.println("  THREW " + p));
        t.vanished.forEach(p -> System.out.println("  GONE  " + p));
        System.out.println("check promise: read but claimed by no check input: " + t.unclaimed.size()
                + " (list them, and the lenient PASSes, with -Drailyard.promise.verbose=true)");
        System.out.println("check promise: a PASS left standing beside a new non-PASS finding of the same check: "
                + t.elsewhere.size());
        t.elsewhere.forEach(p -> System.out.println("  beside " + p));
        if (Boolean.getBoolean("railyard.promise.verbose")) {
            t.lenientPasses.forEach(p -> System.out.println("  lenient " + p));
            t.unnamed.forEach(p -> System.out.println("  unnamed " + p));
            t.unclaimed.forEach(p -> System.out.println("  unclaimed " + p));
        }
    }

    /**
     * A part of the subject judged on its own ("GPU0 (…) row remap" beside "GPU0 (…)"): the PASS stands on what it
     * says, and the part that could not be read is not PASS.
     */
    private static boolean judgedApart(List<Finding> after, Finding was) {
        return after.stream().anyMatch(f -> f.id().equals(was.id()) && f.severity() != Severity.PASS
                && f.subject().startsWith(was.subject() + " "));
    }

    /**
     * A finding that moved to another subject: the GPU-NIC distance of a GPU whose NIC can no longer be placed is
     * said once for the node ("no NIC on PCIe carries the spec's compute bindings"), which is not PASS either.
     */
    private static boolean saidElsewhere(List<Finding> baseline, List<Finding> after, String id) {
        return after.stream().anyMatch(f -> f.id().equals(id) && f.severity() != Severity.PASS && !baseline.contains(f));
    }

    /** An UNKNOWN names its input when its text carries the file's name, the element's name or the reader's reason. */
    private static boolean namesInput(Finding f, String asked, String real, Input input) {
        String text = f.observed() + " " + f.expected();
        String name = asked.substring(asked.lastIndexOf('/') + 1);
        if (input.element() != null) name = input.element().substring(input.element().lastIndexOf('>') + 1);
        return text.contains(name) || text.contains(asked) || text.contains(real);
    }

    /** The regular files the collectors read, as asked (first asker of each real file) to root-relative real path. */
    private static Map<String, String> readFiles(Path tree, ReadLog log) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        Set<String> seen = new LinkedHashSet<>();
        Path realRoot = tree.toRealPath();
        for (String asked : log.files()) {
            Path p = tree.resolve(asked);
            if (!Files.isRegularFile(p) && !Files.isSymbolicLink(p)) continue;
            String real;
            if (Files.isSymbolicLink(p)) {
                real = realRoot.relativize(p.getParent().toRealPath().resolve(p.getFileName())).toString();
            } else {
                real = realRoot.relativize(p.toRealPath()).toString();
            }
            if (seen.add(real)) out.put(asked, real);
        }
        return out;
    }

    /** The file (or link) as it was, and the capture's unreadable list, to put back after each case. */
    private record FileState(String real, Path linkTarget, byte[] content, byte[] unreadableList) {
        static FileState save(Path tree, String real) throws IOException {
            Path p = tree.resolve(real);
            Path u = tree.resolve("railyard/unreadable.txt");
            byte[] list = Files.isRegularFile(u) ? Files.readAllBytes(u) : null;
            if (Files.isSymbolicLink(p)) return new FileState(real, Files.readSymbolicLink(p), null, list);
            return new FileState(real, null, Files.readAllBytes(p), list);
        }

        String unreadableList(Path tree) {
            return unreadableList == null ? null : new String(unreadableList, StandardCharsets.UTF_8);
        }

        void restore(Path tree, String unused) throws IOException {
            Path p = tree.resolve(real);
            TreeMutation.deleteRecursively(p);
            if (linkTarget != null) Files.createSymbolicLink(p, linkTarget);
            else Files.write(p, content);
            Path u = tree.resolve("railyard/unreadable.txt");
            if (unreadableList == null) TreeMutation.deleteRecursively(u);
            else Files.write(u, unreadableList);
        }
    }

    /** Applies one mutation; false when it does not apply to this input (a link has no text to garble). */
    private static boolean mutate(Path tree, String asked, String real, String element, Mutation m) throws IOException {
        Path p = tree.resolve(real);
        boolean link = Files.isSymbolicLink(p);
        // a capture lists the attributes it could not read, never a link: its target is written as is
        if (m == Mutation.UNREADABLE && link) return false;
        if (m == Mutation.UNREADABLE) {
            Path u = tree.resolve("railyard/unreadable.txt");
            Files.createDirectories(u.getParent());
            Files.writeString(u, asked + ": Permission denied\n" + real + ": Permission denied\n",
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            return true;
        }
        if (m == Mutation.MISSING && element == null) {
            Files.delete(p);
            return true;
        }
        if (m == Mutation.DIRECTORY) {
            Files.delete(p);
            Files.createDirectory(p);
            return true;
        }
        if (m == Mutation.DANGLING) {
            Files.delete(p);
            Files.createSymbolicLink(p, Path.of("no-such-" + p.getFileName()));
            return true;
        }
        if (link) return false;
        String text = Files.readString(p, StandardCharsets.UTF_8);
        String changed;
        if (element != null) {
            int[] span = element(text, element);
            if (span == null) return false;
            String name = element.substring(element.lastIndexOf('>') + 1);
            if (m == Mutation.MISSING) {
                changed = text.substring(0, span[0] - name.length() - 2) + text.substring(span[1] + name.length() + 3);
            } else {
                String value = m == Mutation.TRAILING_JUNK ? text.substring(span[0], span[1]).strip() + "#garbage"
                        : garble(text.substring(span[0], span[1]), m).strip();
                changed = text.substring(0, span[0]) + value + text.substring(span[1]);
                if (m == Mutation.CRLF) changed = text.substring(0, span[0]) + text.substring(span[0], span[1]) + "\r\n" + text.substring(span[1]);
            }
        } else {
            changed = garble(text, m);
        }
        Files.delete(p);
        Files.writeString(p, changed);
        return true;
    }

    private static String garble(String text, Mutation m) {
        String v = text.strip();
        return switch (m) {
            case EMPTY -> "";
            case WHITESPACE -> " \n\n\t\n";
            case NOT_AVAILABLE -> "N/A\n";
            case UNKNOWN_WORD -> "unknown\n";
            case NULL_WORD -> "(null)\n";
            case TRUNCATED -> text.substring(0, Math.max(1, text.length() / 2));
            case UNITS -> v + " kB\n";
            case TRAILING_JUNK -> v + "\u0000#garbage\n";
            case NEGATIVE -> "-" + v + "\n";
            case HUGE -> "99999999999999999999999999\n";
            case CRLF -> text.replace("\n", "\r\n") + (text.endsWith("\n") ? "" : "\r\n");
            default -> throw new IllegalArgumentException(m.toString());
        };
    }

    /** The [start, end) of the first element's text after each anchor in turn ("a>b>c": c after b after a). */
    private static int[] element(String text, String path) {
        int at = 0;
        String[] names = path.split(">");
        for (int i = 0; i < names.length; i++) {
            at = text.indexOf("<" + names[i] + ">", at);
            if (at < 0) return null;
            at += names[i].length() + 2;
        }
        int end = text.indexOf("</" + names[names.length - 1] + ">", at);
        return end < 0 ? null : new int[]{at, end};
    }
}

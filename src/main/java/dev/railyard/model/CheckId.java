package dev.railyard.model;

import java.util.Arrays;
import java.util.Optional;

/**
 * Every finding ID Railyard emits, with when it fires: the one list checks, bench verdicts and diagnose take their
 * IDs from. Users filter on these (check --only)
 * and dashboards key on them, so an ID is never renamed in place.
 */
public enum CheckId {
    HOST_MEMLOCK("host.memlock", "RLIMIT_MEMLOCK not unlimited on a node with RDMA"),
    HOST_NET_BUFFERS("host.net.buffers", "net.core.rmem_max/wmem_max below 268435456", Meaning.ADVICE),
    HOST_CPU_GOVERNOR("host.cpu.governor", "scaling governor not performance", Meaning.ADVICE),
    HOST_MODULE_RDMA("host.module.rdma", "an RDMA-capable NIC on PCI but no /sys/class/infiniband device (driver not loaded)"),
    HOST_MODULE_PEERMEM("host.module.peermem", "GPUs and RDMA ports present but nvidia_peermem not loaded (no GPUDirect RDMA)"),
    GPU_COUNT("gpu.count", "GPU count or model differs from the spec"),
    GPU_DRIVER("gpu.driver", "driver/CUDA version differs from the spec or from other nodes"),
    GPU_ECC_UNCORRECTED("gpu.ecc.uncorrected", "uncorrectable (DBE) ECC errors > 0, or row-remap failure/pending"),
    GPU_TEMPERATURE("gpu.temperature", "above 85 °C (warn) or at slowdown threshold (fail)"),
    GPU_THROTTLE("gpu.throttle", "thermal / power-brake / HW slowdown clock events active"),
    GPU_PCIE_LINK("gpu.pcie.link", "PCIe generation or width below the device's maximum"),
    GPU_NVLINK("gpu.nvlink", "NVLink links down on a GPU whose peers expect them"),
    GPU_XID("gpu.xid", "Xid errors in the kernel log, severity from an Xid catalog"),
    RDMA_PORT_STATE("rdma.port.state", "port not ACTIVE (INIT on IB ⇒ no subnet manager)"),
    RDMA_PORT_PHYS("rdma.port.phys", "physical state not LinkUp (Polling ⇒ no cable/peer; Disabled)"),
    RDMA_PORT_RATE("rdma.port.rate", "rate below the spec's link rate or reduced width (10 Gb/s on a 40G link ⇒ cable)"),
    RDMA_IB_SM("rdma.ib.sm", "InfiniBand port with sm_lid 0"),
    RDMA_ROCE_GID("rdma.roce.gid", "RoCE port without a RoCE v2 GID for its IPv4 address (reports the GID index to use)"),
    RDMA_NETDEV_MTU("rdma.netdev.mtu", "RoCE netdev MTU below spec (9000); IPoIB not connected mode / 65520 when asked"),
    RDMA_NETDEV_ADDRESS("rdma.netdev.address", "fabric netdev lacks its spec address or is down"),
    RDMA_LAG("rdma.lag", "an RDMA netdev is a bond member (one flow uses one link)"),
    RDMA_COUNTERS("rdma.counters", "symbol errors, link downed, receive errors, buffer overruns non-zero or rising"),
    NET_CARRIER("net.carrier", "carrier changes (link flaps) rising"),
    TOPO_GPU_NIC_AFFINITY("topo.gpu-nic.affinity", "a GPU's rail NIC is not under its PCIe switch/root complex (SYS/NODE)"),
    TOPO_RAIL("topo.rail", "fewer NICs than GPUs on a compute network (shared NIC bottleneck)"),
    CLUSTER_MTU("cluster.mtu", "the two ends of a link disagree on MTU"),
    CLUSTER_VERSIONS("cluster.versions", "driver / CUDA / NCCL / firmware differ across nodes"),
    CLUSTER_NETWORK_SEPARATION("cluster.network.separation", "management and compute traffic share a subnet"),
    CLUSTER_PKEY("cluster.pkey", "the InfiniBand ports of one network hold different P_Keys (partitions or membership)"),
    BENCH_RDMA_BW("bench.rdma.bw", "RDMA bandwidth below efficiency × line rate (0.90 default)"),
    BENCH_RDMA_LAT("bench.rdma.lat", "RDMA latency above spec"),
    BENCH_NCCL_BUSBW("bench.nccl.busbw", "large-message busbw below expected; #wrong > 0; NET/Socket used where IB/RoCE expected"),
    BENCH_STORAGE_SEQ("bench.storage.seq", "sequential read/write below expected"),

    // The benchmark, cluster and agent IDs.
    BENCH_GPU_PCIE("bench.gpu.pcie", "host-device copy bandwidth far below the GPU's PCIe slot (the link trained down)"),
    BENCH_TCP_BW("bench.tcp.bw", "railyard's TCP bandwidth below the spec's expect.tcp_gbps"),
    BENCH_TCP_LAT("bench.tcp.lat", "railyard's TCP one-way latency above the spec's expect.tcp_latency_us"),
    BENCH_IPERF3("bench.iperf3", "an iperf3 run failed or retransmitted, as its output shows"),
    BENCH_SOCKPERF("bench.sockperf", "a sockperf run failed, or what its output measured"),
    RDMA_NO_DEVICES("rdma.no-devices", "a tool found no RDMA device (driver not loaded)"),
    RDMA_RETRY_EXCEEDED("rdma.retry-exceeded",
            "RDMA work completions failed with retry exceeded (wrong GID index, MTU, or a switch dropping RoCE)"),
    RDMA_COUNTERS_SATURATED("rdma.counters.saturated",
            "an error counter at its width's maximum (link_downed = 255): new errors are invisible until it is reset",
            Meaning.ADVICE),
    VALIDATE_BURN("validate.burn", "validate --burn could not run railyard burn on a node, or it gave no verdict"),
    SOAK_COUNTERS("soak.counters", "an RDMA port's error counter grew during validate --soak (named with its delta)"),
    SOAK_BUSBW("soak.busbw", "over the soak's repetitions: the minimum or median below expect, a repetition without a "
            + "result, or a spread of more than a tenth between the fastest and the slowest"),
    HOST_PCIE_LINK("host.pcie.link", "the kernel reports a device's PCIe link slower or narrower than it can run"),
    HOST_PCIE_AER("host.pcie.aer", "the kernel logs PCIe AER errors (corrected: WARN, uncorrected: FAIL)"),
    HOST_MEMORY_ECC("host.memory.ecc",
            "the kernel logs EDAC, machine-check or APEI memory errors (corrected: WARN, uncorrected: FAIL)"),

    // railyard burn: every GPU under a matrix-multiply load
    BURN_SPEED("burn.speed", "under load, a GPU's TFLOP/s more than --tolerance (10 %) below the node's best GPU"),
    BURN_THROTTLE("burn.throttle", "a hardware or thermal slowdown, or a power brake, while the GPUs were loaded"),
    BURN_ERRORS("burn.errors", "a new Xid, ECC error or row remap while the GPUs were loaded, or a GPU's load failed"),
    BURN_CHECKSUM("burn.checksum",
            "a GPU's results differ from the other GPUs', from the CPU's on a tile, or between its own result slots"),
    BURN_POWER("burn.power", "the node's measured peak GPU power above plan power's node_power for it", Meaning.ADVICE);

    /**
     * What a finding of this ID says about a component's health. A FAULT, or a reading that should exist and
     * cannot be read, changes it; ADVICE (a tuning default) is shown and fixed at leisure, and never degrades it.
     */
    public enum Meaning { FAULT, ADVICE }

    private final String id;
    private final String firesWhen;
    private final Meaning meaning;

    CheckId(String id, String firesWhen) {
        this(id, firesWhen, Meaning.FAULT);
    }

    CheckId(String id, String firesWhen, Meaning meaning) {
        this.id = id;
        this.firesWhen = firesWhen;
        this.meaning = meaning;
    }

    public Meaning meaning() {
        return meaning;
    }

    /** True for a dotted ID whose findings are advice (tuning), not faults. */
    public static boolean isAdvice(String id) {
        return of(id).map(c -> c.meaning == Meaning.ADVICE).orElse(false);
    }

    /** The dotted ID findings carry ("rdma.port.state"). */
    public String id() {
        return id;
    }

    /** When a finding with this ID is not a PASS: the condition, in one line, as help and docs show it. */
    public String firesWhen() {
        return firesWhen;
    }

    public static Optional<CheckId> of(String id) {
        return Arrays.stream(values()).filter(c -> c.id.equals(id)).findFirst();
    }

    @Override
    public String toString() {
        return id;
    }
}

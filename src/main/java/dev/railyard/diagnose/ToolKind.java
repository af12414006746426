package dev.railyard.diagnose;

/** The tool outputs `railyard diagnose` recognises, with the name it prints. */
public enum ToolKind {
    IPERF3_JSON("iperf3 --json"),
    FIO_JSON("fio --output-format=json"),
    FIO_TEXT("fio (text)"),
    NCCL_TESTS("nccl-tests"),
    PERFTEST("perftest (ib_write_bw, ib_write_lat, ...)"),
    IBSTAT("ibstat"),
    IBV_DEVINFO("ibv_devinfo"),
    SHOW_GIDS("show_gids"),
    SOCKPERF("sockperf"),
    IPERF3_TEXT("iperf3 (text)"),
    KERNEL_LOG("dmesg / journalctl -k"),
    RPING("rping"),
    IBSTATUS("ibstatus"),
    IBPORTSTATE("ibportstate"),
    IBLINKINFO("iblinkinfo"),
    PERFQUERY("perfquery"),
    RDMA_LINK("rdma link"),
    RDMA_STATISTIC("rdma statistic / hw_counters"),
    IBDIAGNET("ibdiagnet"),
    MLXLINK("mlxlink"),
    NVIDIA_SMI_TOPO("nvidia-smi topo -m"),
    NVIDIA_SMI_Q("nvidia-smi -q"),
    DCGMI_DIAG("dcgmi diag"),
    LSPCI("lspci -vv"),
    ETHTOOL_STATS("ethtool -S"),
    OSU("OSU micro-benchmarks"),
    UCX_PERFTEST("ucx_perftest"),
    IPERF2("iperf (version 2)"),
    GPU_BURN("gpu-burn"),
    GPU_FRYER("gpu-fryer"),
    /** Several tools' outputs in one paste: one section per tool. */
    MIXED("several tools"),
    /** Not one of the tools, but a line the troubleshooting catalog knows. */
    CATALOG_ONLY("text matching known error lines");

    private final String label;

    ToolKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}

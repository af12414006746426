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

package dev.railyard.model;

/**
 * An error perftest printed, recognised from its text, with the fix. The kinds and fixes come from the seeds'
 * troubleshooting rows and from the real failures in realdata/perftest. {@code lineNumber} is 1-based in the
 * text given to the parser.
 */
public record PerftestFailure(Kind kind, int lineNumber, String line, String detail) {

    public String fix() {
        return kind.fix;
    }

    public enum Kind {
        NO_DEVICES("no RDMA device is visible",
                "# load the RDMA driver (mlx4_ib for ConnectX-3, mlx5_ib for ConnectX-4 and newer), now and at boot:\n"
                        + "modprobe -a mlx4_ib mlx5_ib\n"
                        + "printf 'mlx4_ib\\nmlx5_ib\\n' > /etc/modules-load.d/rdma.conf\n"
                        + "ibv_devices"),
        DEVICE_NOT_FOUND("the --ib-dev device does not exist",
                "# pass one of these to --ib-dev:\nibv_devices"),
        PORT_DOWN("the chosen port is Down",
                "# check the cable; pass a port that shows PORT_ACTIVE with --ib-port:\n"
                        + "ibv_devinfo | grep -E 'hca_id|port:|state'"),
        NO_CONTEXT("perftest could not open the device",
                "# --ib-dev and --ib-port must name a device and port listed here (a Down port also gives this):\n"
                        + "ibv_devinfo | grep -E 'hca_id|port:|state'"),
        GID_NOT_FOUND("no usable GID at the requested index",
                "# pass the RoCE v2 GID index of the netdev's IPv4 address with --gid-index; railyard reports it:\n"
                        + "railyard check --only rdma.roce.gid"),
        CONNECT_FAILED("the client could not reach the server's TCP port",
                "# start the server side first, with the same -p on both sides (default 18515, open in the firewall);\n"
                        + "# the server's address must answer from here:\n"
                        + "ip -br addr"),
        COMPLETION_ERROR("a work completion came back with an error status",
                "# status 12 (retry exceeded) on RoCE: usually a wrong --gid-index, an MTU mismatch or a switch "
                        + "dropping RoCE;\n# status 10 (remote access): the peer rejected the access: run identical "
                        + "options on both sides, server still up\n"
                        + "railyard check --only rdma."),
        RUN_FAILED("the test stopped before finishing its table",
                "# the error lines above the table say why; run the same options on both sides; the ports:\n"
                        + "rdma link show");

        private final String meaning;
        private final String fix;

        Kind(String meaning, String fix) {
            this.meaning = meaning;
            this.fix = fix;
        }

        public String meaning() {
            return meaning;
        }
    }
}

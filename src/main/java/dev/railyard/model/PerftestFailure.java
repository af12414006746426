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
                "load the RDMA driver (modprobe mlx4_ib or mlx5_ib) and check that `ibv_devices` lists the HCA"),
        DEVICE_NOT_FOUND("the --ib-dev device does not exist",
                "pick a device that `ibv_devices` lists and pass it with --ib-dev"),
        PORT_DOWN("the chosen port is Down",
                "check the cable and `rdma link show` / `ibstat`; pass the port the cable is in with --ib-port"),
        NO_CONTEXT("perftest could not open the device",
                "check --ib-dev and --ib-port against `ibv_devinfo`; a Down port also gives this"),
        GID_NOT_FOUND("no usable GID at the requested index",
                "pass the RoCE v2 IPv4 GID with --gid-index (see `show_gids`); the netdev needs an IPv4 address"),
        CONNECT_FAILED("the client could not reach the server's TCP port",
                "start the server side first, use the same -p on both sides, and open TCP 18515 (default) between them"),
        COMPLETION_ERROR("a work completion came back with an error status",
                "status 12 (retry exceeded) on RoCE usually means a wrong --gid-index, MTU or a switch dropping RoCE; "
                        + "status 10 (remote access) means the peer rejected the access: run identical options on "
                        + "both sides and check the server is still up"),
        RUN_FAILED("the test stopped before finishing its table",
                "read the error lines above it; rerun with the same options on both sides");

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

package dev.railyard.check;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A remediation a user can paste into a root shell: one command per line, the one that applies the fix now first and
 * the one that makes it survive a reboot after it. Steps no command can do (reseat a cable) are {@code #} comment
 * lines, so the whole block still runs; nothing is left for the reader to fill in.
 */
public final class Fix {

    private Fix() {
    }

    /**
     * An InfiniBand fabric with no subnet manager (ports stuck at INIT, sm_lid 0): start exactly one. The one text
     * check, the agent and diagnose give for it.
     */
    public static final String START_SUBNET_MANAGER = lines(
            note("run exactly one subnet manager on the fabric, e.g. on this node (or enable the managed switch's own):"),
            "(command -v apt-get >/dev/null && apt-get install -y opensm || dnf install -y opensm) && systemctl enable --now opensm");

    /** Lines joined with newlines; a line starting with "# " is a step for hands, not the shell. */
    public static String lines(String... lines) {
        return Arrays.stream(lines).collect(Collectors.joining("\n"));
    }

    /** A step no command can do, as a shell comment. */
    public static String note(String text) {
        return "# " + text;
    }

    /**
     * A netplan drop-in for one interface, written with printf so nothing is edited by hand; {@code body} is the
     * YAML under the interface, each line already indented by 6 spaces. An odd netdev name is quoted for YAML, for
     * printf's format and for the shell, so it stays a name.
     */
    public static String netplanDropIn(String netdev, String what, String... body) {
        String file = ShellWord.of("/etc/netplan/90-railyard-" + netdev + "-" + what + ".yaml");
        String key = ShellWord.of(netdev).equals(netdev) ? netdev : "'" + netdev.replace("'", "''") + "'";
        StringBuilder yaml = new StringBuilder("network:\\n  version: 2\\n  ethernets:\\n    "
                + key.replace("\\", "\\\\").replace("%", "%%") + ":\\n");
        for (String b : body) yaml.append("      ").append(b).append("\\n");
        return "printf '" + yaml.toString().replace("'", "'\\''") + "' > " + file + " && chmod 600 " + file
                + " && netplan apply";
    }

    /** Sets every core's governor to performance now (the node check's fix persists it). */
    public static final String GOVERNOR_NOW =
            "for g in /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; do echo performance > \"$g\"; done";
    /** Every RDMA port's rate and each HCA's NUMA node, as the kernel reports them. */
    public static final String RDMA_RATES = "grep . /sys/class/infiniband/*/ports/*/rate /sys/class/infiniband/*/device/numa_node";
    /** Every network interface's speed (Mb/s) and MTU. */
    public static final String NET_SPEEDS = "grep . /sys/class/net/*/speed /sys/class/net/*/mtu";
}

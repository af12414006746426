package dev.railyard.check;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A remediation a user can paste into a root shell: one command per line, the one that applies the fix now first and
 * the one that makes it survive a reboot after it. Steps no command can do (reseat a cable) are {@code #} comment
 * lines, so the whole block still runs; nothing is left for the reader to fill in.
 */
final class Fix {

    private Fix() {
    }

    /** Lines joined with newlines; a line starting with "# " is a step for hands, not the shell. */
    static String lines(String... lines) {
        return Arrays.stream(lines).collect(Collectors.joining("\n"));
    }

    /** A step no command can do, as a shell comment. */
    static String note(String text) {
        return "# " + text;
    }

    /**
     * A netplan drop-in for one interface, written with printf so nothing is edited by hand; {@code body} is the
     * YAML under the interface, each line already indented by 6 spaces.
     */
    static String netplanDropIn(String netdev, String what, String... body) {
        String file = "/etc/netplan/90-railyard-" + netdev + "-" + what + ".yaml";
        StringBuilder yaml = new StringBuilder("network:\\n  version: 2\\n  ethernets:\\n    " + netdev + ":\\n");
        for (String b : body) yaml.append("      ").append(b).append("\\n");
        return "printf '" + yaml + "' > " + file + " && chmod 600 " + file + " && netplan apply";
    }

    /** Loads a kernel module now and at every boot. */
    static String module(String name) {
        return lines("modprobe " + name, "echo " + name + " > /etc/modules-load.d/" + name + ".conf");
    }
}

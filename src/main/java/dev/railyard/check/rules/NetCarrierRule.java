package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * net.carrier: a physical NIC's link going down. carrier_changes counts since boot and a clean boot leaves 1-2 (down
 * then up), so one snapshot WARNs only above {@link #SINCE_BOOT}. The agent counts link drops within its flap window
 * (carrier changes between samples, or "Link down" lines of the kernel log): one is a WARN, the limit a FAIL. A pasted
 * kernel log whose last line for a netdev is "Link down" is one drop with no window, as the agent's one drop: a WARN.
 * A fabric NIC that stopped transmitting and was reset (a TX hang) lost packets: FAIL; another NIC WARN. A pasted
 * ethtool -S with drop or error counters is a WARN: counters since the driver loaded tell no rate.
 */
public final class NetCarrierRule implements Rule {

    public static final CheckId ID = CheckId.NET_CARRIER;
    /** Carrier changes since boot above which one snapshot warns. */
    public static final long SINCE_BOOT = 10;

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "netdev carrier_changes (NICs on PCI); the agent: changes within the flap window and the kernel log's "
                + "\"Link down\" lines; diagnose: a kernel log's last link line, NIC TX hangs, ethtool -S counters";
    }

    @Override
    public String thresholds() {
        return SINCE_BOOT + " changes since boot (one snapshot); --flap-changes (default 6) within --flap-window "
                + "(default 10 min) for the agent";
    }

    @Override
    public String severities() {
        return "above " + SINCE_BOOT + " since boot: WARN; within the window: one or more WARN, the limit FAIL; a "
                + "pasted last \"Link down\": WARN; a TX hang: FAIL on a fabric NIC, else WARN; ethtool -S drops or "
                + "errors: WARN; unreadable: UNKNOWN";
    }

    @Override
    public String fix() {
        return "read the netdev's counters and the driver's lines, then reseat or replace the cable or transceiver; "
                + "a TX hang: update firmware and driver together";
    }

    /** One snapshot: the kernel's carrier_changes since boot. */
    public static Verdict sinceBoot(String netdev, Reading<Long> changes) {
        String expected = "<= " + SINCE_BOOT + " carrier changes since boot";
        if (!(changes instanceof Reading.Present<Long>(Long n))) {
            return new Verdict(ID, Severity.UNKNOWN, changes.describe(), expected, "");
        }
        String observed = n + " carrier changes";
        if (n > SINCE_BOOT) return new Verdict(ID, Severity.WARN, observed, expected, linkFix(netdev));
        return new Verdict(ID, Severity.PASS, observed, expected, "");
    }

    /**
     * The agent's fact: {@code drops} link drops of the netdev within {@code window} (as {@code observed} says where
     * they were seen), against {@code limit}.
     */
    public static Verdict drops(String netdev, long drops, String observed, int limit, Duration window) {
        String expected = expected(limit, window);
        if (drops >= limit) return new Verdict(ID, Severity.FAIL, observed, expected, linkFix(netdev));
        if (drops > 0) return new Verdict(ID, Severity.WARN, observed, expected, linkFix(netdev));
        return new Verdict(ID, Severity.PASS, observed, expected, "");
    }

    /** The agent could not read the netdev's count within its window. */
    public static Verdict unread(Reading<?> why, int limit, Duration window) {
        return new Verdict(ID, Severity.UNKNOWN, why.describe(), expected(limit, window), "");
    }

    /** A pasted kernel log whose last link line for the netdev is "Link down": one drop, as the agent's one drop. */
    public static Verdict lastEventDown(String netdev) {
        return new Verdict(ID, Severity.WARN, "the last link event is DOWN", "the link up", linkFix(netdev));
    }

    private static String expected(int limit, Duration window) {
        return "< " + limit + " carrier changes in " + window.toMinutes() + " min";
    }

    /** The netdev's counters and the driver's lines, then hands: the cable. */
    public static String linkFix(String netdev) {
        String nd = ShellWord.of(netdev);
        return Fix.lines("ip -s link show dev " + nd, "ethtool -S " + nd + " | grep -iE 'err|drop|crc'",
                "dmesg | grep -i " + nd, Fix.note("the link went down: reseat or replace the cable/transceiver on "
                        + netdev + ", or move it to another switch port"));
    }

    /**
     * The kernel reset a NIC that stopped transmitting ({@code detail} as it logged it). A NIC of the fabric loses
     * job traffic: FAIL; another (a management port) hangs the node's access, not its jobs: WARN.
     */
    public static Verdict txHang(String netdev, String driver, boolean fabric, String observed) {
        String d = ShellWord.of(netdev);
        String fix = netdev.isEmpty()
                ? Fix.lines("ip -br link", "dmesg | grep -E 'NETDEV WATCHDOG|Unit Hang' | tail -20",
                        Fix.note("update the NIC firmware and driver together; for e1000e/igb hangs, turning off "
                                + "TSO/GSO on that interface (ethtool -K) stops most of them"))
                : Fix.lines("ethtool -i " + d + "   # driver and firmware versions",
                        "dmesg | grep -E " + ShellWord.of(netdev + "|" + driver) + " | tail -20",
                        Fix.note("update the NIC firmware and driver together; for e1000e/igb hangs, turning off "
                                + "TSO/GSO stops most of them:"), "ethtool -K " + d + " tso off gso off");
        return new Verdict(ID, fabric ? Severity.FAIL : Severity.WARN, observed, "no TX hang", fix);
    }

    /**
     * ethtool -S: {@code bad} are the drop, discard and error counters that are not zero (of {@code read} counters),
     * {@code meaning} what they say; the paste's interface where it names one. Counters since the driver loaded tell
     * no rate, so never a FAIL.
     */
    public static Verdict nicCounters(List<String> bad, int read, String meaning, Optional<String> netdev) {
        String expected = "no drops, discards or errors";
        if (bad.isEmpty()) {
            return new Verdict(ID, Severity.PASS, read + " counters, no drops, discards or errors", expected, "");
        }
        String fix = netdev.map(ShellWord::of).map(n -> Fix.lines("ethtool -S " + n
                        + " | grep -E 'discard|drop|err|buffer'   # again in a minute: only counters that rise matter",
                        "ethtool -g " + n + "   # ring sizes", "ethtool -a " + n + "   # pause (flow control)"))
                .orElse(Fix.lines(Fix.note("the interface is not in the paste; every interface's non-zero drop and "
                                + "error counters, again in a minute (only counters that rise matter):"),
                        "for n in /sys/class/net/*; do echo \"${n##*/}\"; ethtool -S \"${n##*/}\" 2>/dev/null "
                                + "| grep -E 'discard|drop|err|buffer' | grep -v ': 0$'; done"));
        return new Verdict(ID, Severity.WARN, String.join(", ", bad) + ": " + meaning, expected, fix);
    }
}

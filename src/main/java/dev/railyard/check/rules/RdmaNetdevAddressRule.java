package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * rdma.netdev.address: a fabric netdev must be up and hold its address. Down (no traffic whatever its address), or
 * without the spec's address: FAIL; without a spec, an active RDMA port's netdev with no IPv4 address: WARN. A
 * netdev the spec binds that the node does not have: FAIL, naming what the node has instead.
 */
public final class RdmaNetdevAddressRule implements Rule {

    public static final CheckId ID = CheckId.RDMA_NETDEV_ADDRESS;
    /** Operstates in which the netdev passes no traffic, whatever address it holds. */
    private static final Set<String> LINK_DOWN = Set.of("down", "lowerlayerdown", "notpresent");

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "fabric netdevs (bound by the spec, or carrying an ACTIVE RDMA port): operstate and addresses";
    }

    @Override
    public String thresholds() {
        return "the spec's address for the node; without a spec an IPv4 address";
    }

    @Override
    public String severities() {
        return "down, missing, or without the spec's address: FAIL; no IPv4 address without a spec: WARN; "
                + "unreadable: UNKNOWN";
    }

    @Override
    public String fix() {
        return "bring the netdev up with its address now and in a netplan drop-in";
    }

    /**
     * The netdev's operstate and addresses; {@code specAddress} with {@code subnet} where the spec binds it.
     * "Is it up" is half the judgement: an operstate that could not be read is UNKNOWN, never PASS.
     */
    public static Verdict judge(String netdev, Reading<String> operState, Reading<List<String>> addresses,
                                Optional<String> specAddress, Optional<String> subnet) {
        String up = "up" + specAddress.map(a -> " with " + a).orElse("");
        if (!(operState instanceof Reading.Present<String>(String oper))) {
            return new Verdict(ID, Severity.UNKNOWN, operState.describe(), up, "");
        }
        if (LINK_DOWN.contains(oper.toLowerCase(Locale.ROOT))) {
            return new Verdict(ID, Severity.FAIL, "operstate " + oper, up, Fix.lines(
                    "ip link set dev " + ShellWord.of(netdev) + " up",
                    Fix.note("it stays up after a reboot once netplan configures it (the address fix below)")));
        }
        String expected = specAddress.map(a -> "address " + a).orElse("an IPv4 address");
        if (!(addresses instanceof Reading.Present<List<String>>(List<String> list))) {
            return new Verdict(ID, Severity.UNKNOWN, addresses.describe(), expected, "");
        }
        List<String> v4 = list.stream().filter(a -> bare(a).indexOf(':') < 0).toList();
        String observed = v4.isEmpty() ? "no IPv4 address" : String.join(", ", v4);
        boolean ok = specAddress.map(want -> list.stream().anyMatch(a -> bare(a).equals(bare(want))))
                .orElse(!v4.isEmpty());
        if (ok) return new Verdict(ID, Severity.PASS, observed, expected, "");
        Optional<String> cidr = specAddress.map(a -> withPrefix(a, subnet)).filter(a -> a.contains("/"));
        return new Verdict(ID, specAddress.isPresent() ? Severity.FAIL : Severity.WARN, observed, expected,
                cidr.map(c -> Fix.lines("ip addr add " + c + " dev " + ShellWord.of(netdev),
                                Fix.netplanDropIn(netdev, "address", "addresses: [" + c + "]")))
                        .orElse(Fix.lines(Fix.note("give " + netdev + " its fabric address: bind it in the spec "
                                        + "(networks[].bind) and check again for the exact commands"),
                                "ip -br addr show " + ShellWord.of(netdev))));
    }

    /** A netdev the spec binds that is not there, and neither is the RDMA port it names: {@code fix} says why. */
    public static Verdict noNetdevNorPort(String port, String expected, String fix) {
        return new Verdict(ID, Severity.FAIL, "no such interface, and no RDMA port " + port + " either", expected, fix);
    }

    /** A netdev the spec binds that is not there, while the port it names is carried by {@code carriers}. */
    public static Verdict carriedByOthers(String netdev, String port, List<String> carriers, String expected) {
        return new Verdict(ID, Severity.FAIL, "no such interface; " + port + " is carried by "
                + String.join(", ", carriers), expected, Fix.lines(Fix.note("the spec names " + netdev + " for " + port
                + ": railyard init writes the names this node uses"), "ip -br link"));
    }

    /** A netdev the spec binds that the node does not have; {@code present} are the netdevs it has. */
    public static Verdict noNetdev(String node, String present, String expected) {
        return new Verdict(ID, Severity.FAIL, "no such interface on " + node + " (it has " + present + ")", expected,
                Fix.lines(Fix.note("a NIC driver not loaded, or the spec names another interface"), "ip -br link",
                        "lspci -k | grep -A3 -iE 'ethernet|infiniband'"));
    }

    /** "10.0.0.1/24" -> "10.0.0.1". */
    public static String bare(String address) {
        int slash = address.indexOf('/');
        return slash < 0 ? address.trim() : address.substring(0, slash).trim();
    }

    /** The address with the subnet's prefix length where it has none. */
    public static String withPrefix(String address, Optional<String> subnet) {
        if (address.contains("/")) return address;
        return subnet.filter(s -> s.contains("/")).map(s -> address + s.substring(s.indexOf('/'))).orElse(address);
    }
}

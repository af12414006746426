package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.RdmaPort.PortState;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.time.Duration;

/**
 * rdma.port.state: a port that is not ACTIVE. On InfiniBand a trained link (INIT, or physical LinkUp) that is not
 * ACTIVE has no subnet manager: FAIL. A port the spec binds must be ACTIVE (FAIL); without a spec (a node with no
 * spec, a paste) a DOWN port may be an unused one of a dual-port card, so it is a WARN; a port the spec does not use
 * is INFO. The agent's drop detector feeds "was ACTIVE, now not, for D of the window W" and its flap count.
 */
public final class RdmaPortStateRule implements Rule {

    public static final CheckId ID = CheckId.RDMA_PORT_STATE;
    public static final String EXPECTED = "4: ACTIVE";
    /** The LID ibstat shows for a port that has none. */
    public static final int NO_LID = 0xffff;

    /** Where the port stands with the spec. */
    public enum Use { BOUND, UNBOUND, UNUSED_BY_SPEC }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "RdmaPort state, phys_state and link layer (sysfs, or ibstat/ibv_devinfo/ibstatus/rdma link pasted); "
                + "whether the spec binds the port; the agent: how long a port seen ACTIVE has been out of it";
    }

    @Override
    public String thresholds() {
        return "ACTIVE (4); the agent: --link-drop (default 30 s) down, --flap-changes drops (default 6) within --flap-window (default 10 min)";
    }

    @Override
    public String severities() {
        return "InfiniBand INIT or LinkUp-but-not-ACTIVE: FAIL; bound port not ACTIVE: FAIL; no spec and DOWN: WARN; "
                + "other states: FAIL; not used by the spec: INFO; unreadable: UNKNOWN; the agent: WARN until the drop "
                + "window passes, then as above, flapping FAIL; the kernel log: a drop WARN, the flap limit FAIL";
    }

    @Override
    public String fix() {
        return "no subnet manager: start exactly one (opensm); else check the cable and the peer port, and test the "
                + "cabled port";
    }

    public static boolean active(RdmaPort p) {
        return p.state() instanceof Reading.Present<PortState>(PortState s) && s.isActive();
    }

    /** One reading of a port's state. */
    public static Verdict judge(RdmaPort p, Use use) {
        if (!(p.state() instanceof Reading.Present<PortState>(PortState s))) {
            return new Verdict(ID, Severity.UNKNOWN, p.state().describe(), EXPECTED, "");
        }
        String observed = s.code() + ": " + s.name();
        if (s.isActive()) return new Verdict(ID, Severity.PASS, observed, EXPECTED, "");
        if (noSubnetManager(p)) {
            return new Verdict(ID, Severity.FAIL, observed + " (no subnet manager has configured the port)", EXPECTED,
                    noSubnetManagerFix(p));
        }
        if (use == Use.UNUSED_BY_SPEC) return new Verdict(ID, Severity.INFO, observed, "not used by the spec", "");
        Severity severity = use == Use.BOUND || s.code() != PortState.DOWN ? Severity.FAIL : Severity.WARN;
        return new Verdict(ID, severity, observed, EXPECTED, noLink(p));
    }

    /**
     * A port the agent saw ACTIVE that left it {@code down} ago: WARN while it may come back, then judged as a port
     * that must be up (it carried traffic).
     */
    public static Verdict dropped(RdmaPort p, Duration down, Duration window) {
        String now = p.state().map(s -> s.code() + ": " + s.name()).describe();
        String observed = "was ACTIVE, now " + now + " for " + down.toSeconds() + " s";
        String expected = "ACTIVE (link drop window " + window.toSeconds() + " s)";
        Severity severity = down.compareTo(window) >= 0 ? Severity.FAIL : Severity.WARN;
        return new Verdict(ID, severity, observed, expected, noSubnetManager(p) ? noSubnetManagerFix(p) : noLink(p));
    }

    /**
     * A port the agent saw ACTIVE that is no longer listed at all: the device fell off the bus, was reset, or its
     * driver went away. A FAIL at once: nothing can use a port that is not there.
     */
    public static Verdict gone(String device, int port) {
        return new Verdict(ID, Severity.FAIL, "was ACTIVE, now gone: no " + device + " port " + port
                + " under sys/class/infiniband", EXPECTED, Fix.lines("rdma link show",
                "dmesg | grep -iE " + ShellWord.of(device + "|mlx5_core|pci") + " | tail -20",
                Fix.note(device + " port " + port + " was up and is no longer listed: the NIC was reset, fell off the "
                        + "bus or its driver was unloaded; reload the driver, then reseat the card")));
    }

    /** {@code drops} times out of ACTIVE within {@code window}: a flapping port, at {@code limit} or more a FAIL. */
    public static Verdict flapping(RdmaPort p, int drops, int limit, Duration window) {
        String now = p.state().map(s -> s.code() + ": " + s.name()).describe();
        String observed = drops + " drops from ACTIVE seen in the last " + window.toMinutes() + " min (now " + now + ")";
        String expected = "< " + limit + " drops from ACTIVE in " + window.toMinutes() + " min";
        return new Verdict(ID, drops >= limit ? Severity.FAIL : Severity.PASS, observed, expected,
                drops >= limit ? noLink(p) : "");
    }

    /**
     * The kernel log's fact: {@code drops} lines of the port leaving ACTIVE within {@code window} (the agent). One
     * is a port that dropped and may be back: WARN; {@code limit} or more a flapping port: FAIL.
     */
    public static Verdict loggedDrops(String device, int port, int drops, int limit, Duration window) {
        String observed = drops + " link drop(s) in the kernel log in the last " + window.toMinutes() + " min";
        String expected = "no link drops in the kernel log within " + window.toMinutes() + " min";
        if (drops >= limit) return new Verdict(ID, Severity.FAIL, observed, expected, noLink(device, port));
        if (drops > 0) return new Verdict(ID, Severity.WARN, observed, expected, noLink(device, port));
        return new Verdict(ID, Severity.PASS, observed, expected, "");
    }

    /** A pasted kernel log whose last line for the port is DOWN: one drop with no window, as the agent's one drop. */
    public static Verdict lastEventDown(String device, int port) {
        return new Verdict(ID, Severity.WARN, "the last link event is DOWN", EXPECTED, noLink(device, port));
    }

    /**
     * An InfiniBand link that trained but is not ACTIVE: INIT, or physical LinkUp with no LID (0, or ibstat's 65535),
     * which no subnet manager has brought up (an SR-IOV VF the SM does not know shows the same).
     */
    public static boolean noSubnetManager(RdmaPort p) {
        if (!p.isInfiniband() || active(p)) return false;
        boolean init = p.state() instanceof Reading.Present<PortState>(PortState s) && s.code() == PortState.INIT;
        boolean noLid = p.lid().optional().map(l -> l == 0 || l == NO_LID).orElse(true);
        return init || RdmaPortPhysRule.linkUp(p) && noLid;
    }

    /** The port's link and the subnet manager it sees, then the one way to start one. */
    static String noSubnetManagerFix(RdmaPort p) {
        return Fix.lines("rdma link show " + ShellWord.of(p.device() + "/" + p.port()),
                "command -v sminfo >/dev/null && sminfo",
                Fix.note("the link is up but no subnet manager configured " + p.device() + " port " + p.port() + ":"),
                Fix.START_SUBNET_MANAGER);
    }

    /** What shows the port's state, then what hands check: the cable, the peer, and which port is cabled. */
    static String noLink(RdmaPort p) {
        return noLink(p.device(), p.port());
    }

    static String noLink(String device, int port) {
        return Fix.lines("rdma link show " + ShellWord.of(device + "/" + port),
                "ibv_devinfo -d " + ShellWord.of(device) + " | grep -E 'port:|state'",
                Fix.note("no link on " + device + " port " + port + ": reseat or replace the cable and check the "
                        + "switch or peer port; an unused port of a dual-port card is normal, so test the cabled one "
                        + "(ib_write_bw --ib-port=" + port + " tests this one)"));
    }
}

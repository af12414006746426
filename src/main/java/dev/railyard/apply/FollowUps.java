package dev.railyard.apply;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What has to happen after files changed for them to take effect, as argv lists in the order they run: systemd
 * and sysctl reload what they read, modules-load.d's modules are loaded, networking is restarted (only with
 * --restart-network: it can cut the session apply runs in), new units are enabled and started, and the daemons whose
 * configuration changed are restarted (the starting ones are left to the admin with --no-start). Nothing here ever
 * touches GPU settings (nvidia-smi -pm/-lgc/-pl are for people to decide).
 */
public final class FollowUps {

    /** What a step does, which decides whether it runs: RELOAD always, NETWORK with --restart-network, START unless --no-start. */
    public enum Kind { RELOAD, NETWORK, START }

    /** One command; {@code enables} is the unit it enables (undo disables it again), else empty. */
    public record Step(List<String> argv, Kind kind, String why, java.util.Optional<String> enables) {
        public Step(List<String> argv, Kind kind, String why) {
            this(argv, kind, why, java.util.Optional.empty());
        }

        public boolean network() {
            return kind == Kind.NETWORK;
        }
    }

    static final String UNITS = "etc/systemd/system/";
    private static final List<String> SLURM_FILES = List.of("etc/slurm/", UNITS + "slurmd.service.d/");
    private static final List<String> OPENSM_FILES = List.of("etc/opensm/opensm.conf", "etc/rdma/opensm.conf");

    private FollowUps() {
    }

    public static List<Step> of(List<Change> changes) {
        boolean daemonReload = false;
        boolean sysctl = false;
        Set<Step> modules = new LinkedHashSet<>();
        Set<Step> network = new LinkedHashSet<>();
        List<String> nmIds = new ArrayList<>();
        Set<Step> enable = new LinkedHashSet<>();
        Set<Step> restart = new LinkedHashSet<>();
        for (Change c : changes) {
            if (c.kind() == Change.Kind.UNCHANGED) continue;
            String p = c.file().path();
            boolean created = c.kind() == Change.Kind.CREATE;
            if (p.startsWith(UNITS)) {
                daemonReload = true;
                String name = p.substring(UNITS.length());
                // a service a rendered timer starts runs when the timer fires, not when it is installed
                boolean timed = name.endsWith(".service") && changes.stream().anyMatch(o -> o.file().path()
                        .equals(UNITS + name.substring(0, name.length() - ".service".length()) + ".timer"));
                if (!name.contains("/") && name.endsWith(".timer") && created) {
                    enable.add(new Step(List.of("systemctl", "enable", "--now", name), Kind.START, "new timer " + name,
                            java.util.Optional.of(name)));
                } else if (!name.contains("/") && name.endsWith(".service") && !timed) {
                    if (created) enable.add(new Step(List.of("systemctl", "enable", "--now", name), Kind.START, "new unit " + name, java.util.Optional.of(name)));
                    else restart.add(new Step(List.of("systemctl", "try-restart", name), Kind.START, "unit " + name + " changed"));
                }
            } else if (p.startsWith("etc/sysctl.d/")) {
                sysctl = true;
            } else if (p.startsWith("etc/modules-load.d/")) {
                for (String module : modules(c.file().content())) {
                    modules.add(new Step(List.of("modprobe", module), Kind.START, "modules-load.d names " + module + " (loaded at boot; now too)"));
                }
            } else if (p.startsWith("etc/netplan/")) {
                network.add(new Step(List.of("netplan", "apply"), Kind.NETWORK, "netplan changed"));
            } else if (p.startsWith("etc/NetworkManager/system-connections/")) {
                network.add(new Step(List.of("nmcli", "connection", "reload"), Kind.NETWORK, "keyfiles changed"));
                String name = p.substring(p.lastIndexOf('/') + 1);
                nmIds.add(name.substring(0, name.length() - ".nmconnection".length()));
            }
            if (OPENSM_FILES.contains(p)) {
                (created ? enable : restart).add(created
                        ? new Step(List.of("systemctl", "enable", "--now", "opensm.service"), Kind.START,
                                "opensm.conf is new: this node is the subnet manager", java.util.Optional.of("opensm.service"))
                        : new Step(List.of("systemctl", "restart", "opensm.service"), Kind.START, "opensm.conf changed"));
            }
            if (SLURM_FILES.stream().anyMatch(p::startsWith)) {
                // try-restart: a slurmd that is not running (slurm.conf not including railyard's files yet) stays down
                restart.add(new Step(List.of("systemctl", "try-restart", "slurmd.service"), Kind.START, "Slurm's node configuration changed"));
            }
        }
        for (String id : nmIds) network.add(new Step(List.of("nmcli", "connection", "up", id), Kind.NETWORK, "keyfile " + id + " changed"));
        List<Step> all = new ArrayList<>();
        if (daemonReload) all.add(new Step(List.of("systemctl", "daemon-reload"), Kind.RELOAD, "systemd units changed"));
        if (sysctl) all.add(new Step(List.of("sysctl", "--system"), Kind.RELOAD, "sysctl.d changed"));
        all.addAll(modules);
        all.addAll(network);
        all.addAll(enable);
        all.addAll(restart);
        return List.copyOf(all);
    }

    /** The module names of a modules-load.d file: one per line, '#' and ';' start comments. */
    static List<String> modules(String text) {
        return text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#") && !l.startsWith(";")).toList();
    }

    /** The steps that undo an apply's enabling: each unit it enabled is disabled and stopped, before its file goes. */
    public static List<Step> disable(List<String> enabledUnits) {
        return enabledUnits.stream().map(u -> new Step(List.of("systemctl", "disable", "--now", u), Kind.START,
                "railyard apply enabled " + u)).toList();
    }
}

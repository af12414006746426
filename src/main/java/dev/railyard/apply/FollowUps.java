package dev.railyard.apply;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What has to happen after files changed for them to take effect, as argv lists. Network commands can cut the
 * session apply runs in, so they run only with --restart-network; nothing here ever touches GPU settings
 * (nvidia-smi -pm/-lgc/-pl are for people to decide).
 */
public final class FollowUps {

    /** One command; {@code network} ones may drop links. */
    public record Step(List<String> argv, boolean network, String why) {}

    private FollowUps() {
    }

    public static List<Step> of(List<Change> changes) {
        Set<Step> steps = new LinkedHashSet<>();
        List<String> nmIds = new ArrayList<>();
        for (Change c : changes) {
            if (c.kind() == Change.Kind.UNCHANGED) continue;
            String p = c.file().path();
            if (p.startsWith("etc/systemd/system/")) {
                steps.add(new Step(List.of("systemctl", "daemon-reload"), false, "systemd units changed"));
            } else if (p.startsWith("etc/sysctl.d/")) {
                steps.add(new Step(List.of("sysctl", "--system"), false, "sysctl.d changed"));
            } else if (p.startsWith("etc/netplan/")) {
                steps.add(new Step(List.of("netplan", "apply"), true, "netplan changed"));
            } else if (p.startsWith("etc/NetworkManager/system-connections/")) {
                steps.add(new Step(List.of("nmcli", "connection", "reload"), true, "keyfiles changed"));
                String name = p.substring(p.lastIndexOf('/') + 1);
                nmIds.add(name.substring(0, name.length() - ".nmconnection".length()));
            }
        }
        for (String id : nmIds) steps.add(new Step(List.of("nmcli", "connection", "up", id), true, "keyfile " + id + " changed"));
        return List.copyOf(steps);
    }
}

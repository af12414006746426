package dev.railyard.cli;

import dev.railyard.apply.Change;
import dev.railyard.apply.NetworkClaims;
import dev.railyard.apply.TargetRoot;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The node's other netplan files and NetworkManager profiles that also define one of railyard's fabric interfaces. */
final class OtherNetworkFiles {

    private OtherNetworkFiles() {
    }

    /**
     * Each fabric interface that another netplan file or NetworkManager profile also defines: taken over (that file
     * edited, backed up like the others) when --take-over names it, else named in the notes of railyard's own file,
     * and --apply refuses.
     */
    static List<Change> resolve(ClusterSpec cluster, String name, TargetRoot target, List<Change> changes,
            Set<String> takeOvers, boolean applying) {
        Set<String> ifaces = new LinkedHashSet<>();
        for (ClusterSpec.Network n : cluster.networks()) {
            if (n.role() != ClusterSpec.Role.MANAGEMENT && n.bind().containsKey(name)) ifaces.add(n.bind().get(name).netdev());
        }
        Set<String> own = changes.stream().map(c -> c.file().path()).collect(java.util.stream.Collectors.toSet());
        List<NetworkClaims.Claim> claims = NetworkClaims.find(target, ifaces, own);
        if (claims.isEmpty()) return changes;
        List<Change> out = new ArrayList<>(changes);
        List<String> refused = new ArrayList<>();
        for (NetworkClaims.Claim c : claims) {
            if (takeOvers.contains(c.iface())) {
                Change other = target.changes(List.of(NetworkClaims.takenOver(c))).getFirst();
                out.add(other);
                continue;
            }
            String note = c.iface() + " is also defined in /" + c.path() + ": " + c.what() + "; --apply refuses unless --take-over "
                    + c.iface() + " (railyard then edits that file, backed up)";
            refused.add(note);
            for (int i = 0; i < out.size(); i++) {
                Change ch = out.get(i);
                String p = ch.file().path();
                boolean network = p.startsWith("etc/netplan/") || p.startsWith("etc/NetworkManager/");
                if (network && (ch.file().content().contains("interface-name=" + c.iface() + "\n") || ch.file().content().contains("    " + c.iface() + ":\n"))) {
                    out.set(i, new Change(ch.file().withNotes(List.of(note)), ch.current(), ch.currentMode()));
                }
            }
        }
        if (!refused.isEmpty() && applying) {
            throw new RailyardException.Usage(refused.getFirst() + (refused.size() > 1 ? " (and " + (refused.size() - 1) + " more)" : "")
                    + ": nothing was changed", "railyard apply --apply --take-over " + String.join(",",
                    claims.stream().map(NetworkClaims.Claim::iface).filter(i -> !takeOvers.contains(i)).distinct().toList())
                    + " (or remove the interface from the other file yourself)");
        }
        out.sort(java.util.Comparator.comparing(c -> c.file().path()));
        return out;
    }
}

package dev.railyard.apply;

import dev.railyard.render.RenderedFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The node's other network configuration that defines an interface railyard's files define too: netplan files
 * (netplan merges them by interface, so an installer's 50-cloud-init.yaml address and railyard's both land on the
 * interface), NetworkManager keyfiles and ifcfg files (two profiles for one interface: whichever comes up wins).
 * Taking an interface over edits the other file: its netplan stanza goes, its profile stops autoconnecting.
 */
public final class NetworkClaims {

    /** One other file's definition of an interface; {@code takeOver} is that file without it. */
    public record Claim(String iface, String path, String what, String takeOver, int mode) {}

    private static final Set<String> NETPLAN_KINDS = Set.of("ethernets", "bonds", "bridges", "vlans", "wifis", "tunnels",
            "vrfs", "modems", "dummy-devices", "virtual-ethernets", "nm-devices");
    private static final Pattern KEY = Pattern.compile("^( *)([A-Za-z0-9_.:@\"-]+):\\s*(#.*)?$");

    private NetworkClaims() {
    }

    /** Every other file under the root that defines one of {@code ifaces}; railyard's own files are left out. */
    public static List<Claim> find(TargetRoot root, Set<String> ifaces, Set<String> ownPaths) {
        List<Claim> out = new ArrayList<>();
        for (Path f : list(root, "etc/netplan", ".yaml")) {
            String rel = root.dir().relativize(f).toString();
            if (!ownPaths.contains(rel)) read(f).ifPresent(t -> netplan(ifaces, rel, t, mode(f)).forEach(out::add));
        }
        for (Path f : list(root, "etc/NetworkManager/system-connections", ".nmconnection")) {
            String rel = root.dir().relativize(f).toString();
            if (!ownPaths.contains(rel)) read(f).flatMap(t -> keyfile(ifaces, rel, t, mode(f))).ifPresent(out::add);
        }
        for (Path f : list(root, "etc/sysconfig/network-scripts", "")) {
            String rel = root.dir().relativize(f).toString();
            if (f.getFileName().toString().startsWith("ifcfg-")) read(f).flatMap(t -> ifcfg(ifaces, rel, t, mode(f))).ifPresent(out::add);
        }
        return out;
    }

    /** The interfaces a netplan file defines under network.ethernets (bonds, vlans...), each with the file without it. */
    static List<Claim> netplan(Set<String> ifaces, String path, String text, int mode) {
        List<String> lines = text.lines().toList();
        List<Claim> out = new ArrayList<>();
        int section = -1;
        int child = -1;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.isBlank() || l.strip().startsWith("#")) continue;
            int indent = l.length() - l.stripLeading().length();
            Matcher m = KEY.matcher(l);
            if (section >= 0 && indent <= section) section = -1;
            if (section < 0) {
                if (m.matches() && NETPLAN_KINDS.contains(m.group(2))) {
                    section = indent;
                    child = -1;
                }
                continue;
            }
            if (child < 0) child = indent;
            if (indent != child || !m.matches()) continue;
            String id = m.group(2).replace("\"", "");
            if (!ifaces.contains(id)) continue;
            int end = i + 1;
            while (end < lines.size() && (lines.get(end).isBlank()
                    || lines.get(end).length() - lines.get(end).stripLeading().length() > child)) end++;
            List<String> stanza = lines.subList(i, end);
            String addresses = String.join(", ", stanza.stream().map(String::strip).filter(s -> s.startsWith("- ") && s.contains("/"))
                    .map(s -> s.substring(2).strip()).toList());
            out.add(new Claim(id, path, "netplan merges it with railyard's file" + (addresses.isEmpty() ? "" : " (addresses there: " + addresses + ")"),
                    without(lines, i, end, section), mode));
        }
        return out;
    }

    /** The lines without [from, to), and without the section header when nothing is left under it. */
    private static String without(List<String> lines, int from, int to, int sectionIndent) {
        List<String> kept = new ArrayList<>(lines.subList(0, from));
        kept.addAll(lines.subList(to, lines.size()));
        int header = -1;
        for (int i = from - 1; i >= 0; i--) {
            String l = kept.get(i);
            if (l.isBlank() || l.strip().startsWith("#")) continue;
            if (l.length() - l.stripLeading().length() == sectionIndent) {
                header = i;
            }
            break;
        }
        if (header >= 0) {
            boolean empty = true;
            for (int i = header + 1; i < kept.size(); i++) {
                String l = kept.get(i);
                if (l.isBlank() || l.strip().startsWith("#")) continue;
                empty = l.length() - l.stripLeading().length() <= sectionIndent;
                break;
            }
            if (empty) kept.remove(header);
        }
        return String.join("\n", kept) + "\n";
    }

    static Optional<Claim> keyfile(Set<String> ifaces, String path, String text, int mode) {
        Matcher m = Pattern.compile("(?m)^interface-name=(\\S+)\\s*$").matcher(text);
        if (!m.find() || !ifaces.contains(m.group(1))) return Optional.empty();
        String off = Pattern.compile("(?m)^autoconnect=").matcher(text).find() ? text.replaceAll("(?m)^autoconnect=.*$", "autoconnect=false")
                : text.replaceFirst("(?m)^\\[connection\\]\\s*$", "[connection]\nautoconnect=false");
        return Optional.of(new Claim(m.group(1), path, "a second NetworkManager profile for it (whichever comes up first wins)", off, mode));
    }

    static Optional<Claim> ifcfg(Set<String> ifaces, String path, String text, int mode) {
        Matcher m = Pattern.compile("(?m)^DEVICE=\"?([^\"\\s]+)\"?\\s*$").matcher(text);
        if (!m.find() || !ifaces.contains(m.group(1))) return Optional.empty();
        String off = Pattern.compile("(?m)^ONBOOT=").matcher(text).find() ? text.replaceAll("(?m)^ONBOOT=.*$", "ONBOOT=no") : text + "ONBOOT=no\n";
        return Optional.of(new Claim(m.group(1), path, "an ifcfg profile for it (NetworkManager's ifcfg-rh plugin)", off, mode));
    }

    /** The other file with the interface taken out, as a file apply writes (backed up and undone like its own). */
    public static RenderedFile takenOver(Claim c) {
        return new RenderedFile(c.path(), c.takeOver(), c.mode()).withNotes(List.of("taken over " + c.iface()
                + " (--take-over): " + (c.path().startsWith("etc/netplan/") ? "its stanza is removed from this file"
                : "this profile no longer autoconnects") + "; the old file is in the backup and --undo puts it back"));
    }

    private static List<Path> list(TargetRoot root, String dir, String suffix) {
        Path d = root.resolve(dir);
        if (!Files.isDirectory(d)) return List.of();
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static Optional<String> read(Path p) {
        try {
            return Optional.of(Files.readString(p, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty(); // not readable or not UTF-8: not one railyard can merge with or edit
        }
    }

    private static int mode(Path p) {
        try {
            return TargetRoot.mode(p);
        } catch (IOException e) {
            return 0600;
        }
    }
}

package dev.railyard.render;

import dev.railyard.platform.HostRoot;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the node's installed system says beside the spec, where render was given a root (apply always is): the
 * OS release (IPoIB's mode depends on it) and the slurmd unit the packages installed (a drop-in that repeats it is
 * left out). Unknown when rendering from the spec alone.
 */
public record InstalledSystem(Optional<String> osId, Optional<Integer> osMajor, Optional<String> slurmdUnit) {

    /** Where systemd finds slurmd.service: an admin's own copy first, then the packages' (Debian, then RHEL). */
    static final List<String> SLURMD_UNITS = List.of("etc/systemd/system/slurmd.service",
            "lib/systemd/system/slurmd.service", "usr/lib/systemd/system/slurmd.service");
    private static final Pattern KEY = Pattern.compile("^(ID|VERSION_ID)=\"?([^\"]*)\"?$", Pattern.MULTILINE);

    public static InstalledSystem unknown() {
        return new InstalledSystem(Optional.empty(), Optional.empty(), Optional.empty());
    }

    public static InstalledSystem read(HostRoot host) {
        Optional<String> release = host.read("etc/os-release").optional().or(() -> host.read("usr/lib/os-release").optional());
        Optional<String> id = Optional.empty();
        Optional<Integer> major = Optional.empty();
        if (release.isPresent()) {
            Matcher m = KEY.matcher(release.get());
            while (m.find()) {
                if (m.group(1).equals("ID")) id = Optional.of(m.group(2));
                else major = leadingNumber(m.group(2));
            }
        }
        Optional<String> unit = SLURMD_UNITS.stream().map(p -> host.read(p).optional()).flatMap(Optional::stream).findFirst();
        return new InstalledSystem(id, major, unit);
    }

    private static Optional<Integer> leadingNumber(String version) {
        Matcher m = Pattern.compile("^([0-9]{1,4})").matcher(version);
        return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
    }

    /** Whether the installed slurmd.service already sets this line in its [Service] section ("LimitMEMLOCK=infinity"). */
    public boolean slurmdSets(String line) {
        return slurmdUnit.map(u -> u.lines().map(String::strip).anyMatch(line::equals)).orElse(false);
    }
}

package dev.railyard.model;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One "local address:" or "remote address:" line and the "GID:" line under it. perftest prints the GID one
 * byte per field in decimal ("%02d:"), so "...:255:255:10:00:04:07" is ::ffff:10.0.4.7 and "254:128:..." is fe80:...
 */
public record QpAddress(Side side, int lid, String qpn, String psn, Optional<Gid> gid) {

    public enum Side { LOCAL, REMOTE }

    public QpAddress withGid(Gid g) {
        return new QpAddress(side, lid, qpn, psn, Optional.of(g));
    }

    /** The 16 GID bytes. */
    public record Gid(List<Integer> bytes) {
        public Gid {
            bytes = List.copyOf(bytes);
            if (bytes.size() != 16) throw new IllegalArgumentException("a GID has 16 bytes, not " + bytes.size());
        }

        /** The form the kernel uses in sysfs: eight groups of four hex digits. */
        public String hex() {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 16; i += 2) {
                if (i > 0) sb.append(':');
                sb.append(String.format("%02x%02x", bytes.get(i), bytes.get(i + 1)));
            }
            return sb.toString();
        }

        /** The IPv4 address of an IPv4-mapped (RoCE v2 over IPv4) GID, ::ffff:a.b.c.d. */
        public Optional<String> ipv4() {
            for (int i = 0; i < 10; i++) if (bytes.get(i) != 0) return Optional.empty();
            if (bytes.get(10) != 255 || bytes.get(11) != 255) return Optional.empty();
            return Optional.of(bytes.subList(12, 16).stream().map(String::valueOf).collect(Collectors.joining(".")));
        }
    }
}

package dev.railyard.model;

import java.util.Optional;

/** An IPv4 network or host with a prefix length ("10.0.0.0/24"), as 32 unsigned bits. */
public record Ipv4Cidr(int bits, int prefix) {

    public Ipv4Cidr {
        if (prefix < 0 || prefix > 32) throw new IllegalArgumentException("prefix " + prefix);
    }

    /** "a.b.c.d" with four decimal octets 0..255, no leading "+" or spaces. */
    public static Optional<Integer> parseAddress(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) return Optional.empty();
        int bits = 0;
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit)) return Optional.empty();
            int octet = Integer.parseInt(p);
            if (octet > 255) return Optional.empty();
            bits = (bits << 8) | octet;
        }
        return Optional.of(bits);
    }

    /**
     * Whether a dotted address has a number with a leading zero ("10.0.0.010"): railyard reads it as decimal, but
     * inet_aton (ssh, ping, getaddrinfo) reads it as octal, so the two would reach different hosts.
     */
    public static boolean zeroPadded(String text) {
        for (String p : text.split("\\.", -1)) {
            if (p.length() > 1 && p.startsWith("0")) return true;
        }
        return false;
    }

    /** "a.b.c.d/n"; host bits may be set (use {@link #isNetwork()} to insist on a network address). */
    public static Optional<Ipv4Cidr> parse(String text) {
        int slash = text.indexOf('/');
        if (slash < 0) return Optional.empty();
        String len = text.substring(slash + 1);
        if (len.isEmpty() || len.length() > 2 || !len.chars().allMatch(Character::isDigit)) return Optional.empty();
        int prefix = Integer.parseInt(len);
        if (prefix > 32) return Optional.empty();
        return parseAddress(text.substring(0, slash)).map(bits -> new Ipv4Cidr(bits, prefix));
    }

    public int mask() {
        return prefix == 0 ? 0 : -1 << (32 - prefix);
    }

    public boolean isNetwork() {
        return (bits & ~mask()) == 0;
    }

    public Ipv4Cidr network() {
        return new Ipv4Cidr(bits & mask(), prefix);
    }

    public boolean contains(int address) {
        return (address & mask()) == (bits & mask());
    }

    public String address() {
        return format(bits);
    }

    public static String format(int bits) {
        return (bits >>> 24) + "." + ((bits >>> 16) & 0xff) + "." + ((bits >>> 8) & 0xff) + "." + (bits & 0xff);
    }

    @Override
    public String toString() {
        return address() + "/" + prefix;
    }
}

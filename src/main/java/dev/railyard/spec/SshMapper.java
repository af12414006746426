package dev.railyard.spec;

import dev.railyard.model.SshOptions;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Maps an {@code ssh} section (top level or a node's own). Values end up as separate ssh arguments, never in a shell
 * string, but ssh itself splits {@code -o} values on blanks and expands {@code %} tokens: so user names and paths
 * are held to characters that mean nothing to it.
 */
final class SshMapper {

    static final List<String> KEYS = List.of("user", "port", "identity_file", "config_file", "known_hosts");

    private static final Pattern USER = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,31}");
    private static final Pattern PATH = Pattern.compile("(~/|/|\\./|\\.\\./|[A-Za-z0-9_])[A-Za-z0-9_./@+,=:-]*");

    SshOptions map(SpecNode node) {
        SpecNode.SpecMap m = node.asMap(KEYS);
        return new SshOptions(
                m.get("user").map(SshMapper::user),
                m.get("port").map(n -> {
                    int port = n.asInt();
                    if (port < 1 || port > 65535) throw n.error(port + " is out of range 1..65535");
                    return port;
                }),
                m.get("identity_file").map(SshMapper::path),
                m.get("config_file").map(SshMapper::path),
                m.get("known_hosts").map(SshMapper::path));
    }

    private static String user(SpecNode n) {
        String v = n.asString();
        if (!USER.matcher(v).matches()) {
            throw n.error("\"" + v + "\" is not a valid user name (letters, digits, '_', '.', '-'; at most 32)");
        }
        return v;
    }

    private static String path(SpecNode n) {
        String v = n.asString();
        if (!PATH.matcher(v).matches() || v.contains("//")) {
            throw n.error("\"" + v + "\" is not a usable path (letters, digits and _ . / @ + , = : - only; "
                    + "~/ for your home)");
        }
        return v;
    }
}

package dev.railyard.cluster;

import java.util.regex.Pattern;

/**
 * The two sh programs that keep bundles on a node, in the node user's cache directory as XDG says
 * ({@code ${XDG_CACHE_HOME:-$HOME/.cache}/railyard/HASH}); both take their values as arguments, never glued in.
 */
final class NodeCache {

    /** {@code sh -c PROBE railyard-probe HASH}: prints "present DIR" or "absent DIR". */
    static final String PROBE = String.join("\n",
            "d=\"${XDG_CACHE_HOME:-$HOME/.cache}/railyard/$1\"",
            "if [ -x \"$d/bin/railyard\" ]; then echo \"present $d\"; else echo \"absent $d\"; fi");

    /**
     * {@code sh -c UNPACK railyard-unpack DIR TARBALL} ({@code -} for stdin): unpacks next to DIR and renames it into
     * place, so no half copy is ever run; a copy that lost a race to another finished one is dropped. Then, once per
     * node and version, one training run of {@code inventory} (read-only) records the ahead-of-time class cache that
     * bin/railyard uses from then on; it is made in place (the cache remembers the jars' paths) under a temporary name,
     * and a failed training leaves no cache, only slower starts.
     */
    static final String UNPACK = String.join("\n",
            "set -e",
            "d=\"$1\"; t=\"$d.partial.$$\"",
            "trap 'rm -rf \"$t\"' EXIT",
            "mkdir -p \"$t\"",
            "tar -xzf \"$2\" -C \"$t\"",
            "[ -x \"$t/bin/railyard\" ]",
            "[ -d \"$d\" ] || mv \"$t\" \"$d\"",
            "[ -f \"$d/railyard.aot\" ] || { \"$d/runtime/bin/java\" -XX:AOTCacheOutput=\"$d/railyard.aot.$$\""
                    + " -Xlog:disable -Xlog:all=off -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
                    + " --enable-native-access=ALL-UNNAMED -cp \"$d/app/*\" dev.railyard.cli.Main inventory --format json"
                    + " >/dev/null 2>&1 </dev/null && mv \"$d/railyard.aot.$$\" \"$d/railyard.aot\""
                    + " || rm -f \"$d/railyard.aot.$$\"; }");

    /** A directory the probe may print: absolute, nothing a shell or ssh would read specially. */
    static final Pattern DIR = Pattern.compile("/[A-Za-z0-9_./@+,=:-]*");

    private NodeCache() {
    }

    /** The probe's answer, or empty when it is not one. */
    static java.util.Optional<Answer> parse(String stdout) {
        String[] a = stdout.strip().split(" ", 2);
        if (a.length != 2 || !DIR.matcher(a[1]).matches()) return java.util.Optional.empty();
        if (!a[0].equals("present") && !a[0].equals("absent")) return java.util.Optional.empty();
        return java.util.Optional.of(new Answer(a[0].equals("present"), a[1]));
    }

    record Answer(boolean present, String dir) {
        String railyard() {
            return dir + "/bin/railyard";
        }
    }
}

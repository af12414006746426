package dev.railyard.cluster;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The two sh programs that keep bundles on a node, in the node user's cache directory as XDG says
 * ({@code ${XDG_CACHE_HOME:-$HOME/.cache}/railyard/HASH}); both take their values as arguments, never glued in.
 * Both also prune the versions nobody has used for {@link #UNUSED_FOR}, so upgrades do not pile up ~120 MB per
 * version on every node.
 */
final class NodeCache {

    /**
     * How long a version directory is kept after its last use (a probe or an unpack refreshes its mtime). Long, so
     * that a coordinator of another version working on the same cluster never loses the version it runs.
     */
    static final Duration UNUSED_FOR = Duration.ofDays(14);

    /**
     * {@code prune RAILYARD_DIR KEEP MINUTES}: removes the direct children of RAILYARD_DIR that are a version
     * (16 to 64 lowercase hex, {@link Bundle}'s hash) or an interrupted unpack of one ({@code HASH.partial.PID}),
     * other than KEEP, and whose mtime is more than MINUTES old. Names come one by one from a glob of that directory
     * and must match exactly, so nothing else (the local {@code bundles} cache, a user's file, a symbolic link) is
     * ever removed. Best effort and silent: a failed prune must never fail the step that runs it.
     */
    private static final String PRUNE = String.join("\n",
            "prune() {",
            "  case $1 in /*/railyard) ;; *) return 0 ;; esac",
            "  case $3 in ''|*[!0123456789]*) return 0 ;; esac",
            "  for x in \"$1\"/*; do",
            "    n=${x##*/}; v=${n%.partial.*}",
            "    [ \"$n\" != \"$2\" ] || continue",
            "    case ${#v} in 1[6789]|[2345][0123456789]|6[01234]) ;; *) continue ;; esac",
            "    case $v in *[!0123456789abcdef]*) continue ;; esac",
            "    case ${n#\"$v\"} in ''|.partial.[0123456789]*) ;; *) continue ;; esac",
            "    case ${n#\"$v\"} in .partial.*[!0123456789]*) continue ;; esac",
            "    [ -n \"$(find \"$x\" -prune -type d -mmin +\"$3\" 2>/dev/null)\" ] || continue",
            "    rm -rf \"$x\" 2>/dev/null || :",
            "  done",
            "}");

    /**
     * {@code sh -c PROBE railyard-probe HASH MINUTES}: prints "present DIR" or "absent DIR", then "arch MACHINE"
     * ({@code uname -m}: a bundle runs only where its runtime was built for); a present version's directory gets a
     * fresh mtime (it is in use), then the unused ones are pruned.
     */
    static final String PROBE = String.join("\n",
            PRUNE,
            "c=\"${XDG_CACHE_HOME:-$HOME/.cache}/railyard\"; d=\"$c/$1\"",
            "if [ -x \"$d/bin/railyard\" ]; then touch \"$d\" 2>/dev/null; echo \"present $d\"",
            "else echo \"absent $d\"; fi",
            "echo \"arch $(uname -m 2>/dev/null)\"",
            "prune \"$c\" \"$1\" \"$2\" || :");

    /**
     * {@code sh -c UNPACK railyard-unpack DIR TARBALL MINUTES} ({@code -} for stdin): unpacks next to DIR and renames
     * it into place, so no half copy is ever run; a copy that lost a race to another finished one is dropped. Then,
     * once per node and version, one training run of {@code inventory} (read-only) records the ahead-of-time class
     * cache that bin/railyard uses from then on; it is made in place (the cache remembers the jars' paths) under a
     * temporary name, and a failed training leaves no cache, only slower starts. Last, the unused versions beside DIR
     * are pruned. {@code tar -m}: the tarball's own top directory may be weeks old (the bundle is built once and
     * cached), and an unpack stamped with that age would look unused to another version's prune.
     */
    static final String UNPACK = String.join("\n",
            PRUNE,
            "set -e",
            "d=\"$1\"; t=\"$d.partial.$$\"",
            "trap 'rm -rf \"$t\"' EXIT",
            "mkdir -p \"$t\"",
            "tar -xzmf \"$2\" -C \"$t\"",
            "[ -x \"$t/bin/railyard\" ]",
            "[ -d \"$d\" ] || mv \"$t\" \"$d\"",
            "touch \"$d\" 2>/dev/null || :",
            "[ -f \"$d/railyard.aot\" ] || { \"$d/runtime/bin/java\" -XX:AOTCacheOutput=\"$d/railyard.aot.$$\""
                    + " -Xlog:disable -Xlog:all=off -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
                    + " --enable-native-access=ALL-UNNAMED -cp \"$d/app/*\" dev.railyard.cli.Main inventory --format json"
                    + " >/dev/null 2>&1 </dev/null && mv \"$d/railyard.aot.$$\" \"$d/railyard.aot\""
                    + " || rm -f \"$d/railyard.aot.$$\"; }",
            "prune \"${d%/*}\" \"${d##*/}\" \"$3\" || :");

    /** A directory the probe may print: absolute, nothing a shell or ssh would read specially. */
    static final Pattern DIR = Pattern.compile("/[A-Za-z0-9_./@+,=:-]*");

    private NodeCache() {
    }

    /** The probe's argv for the node. */
    static List<String> probe(String hash) {
        return List.of("sh", "-c", PROBE, "railyard-probe", hash, minutes());
    }

    /** The unpack's argv for the node: {@code tarball} is a path there, or {@code -} for stdin. */
    static List<String> unpack(String dir, String tarball) {
        return List.of("sh", "-c", UNPACK, "railyard-unpack", dir, tarball, minutes());
    }

    private static String minutes() {
        return Long.toString(UNUSED_FOR.toMinutes());
    }

    /** The probe's answer, or empty when it is not one. */
    static java.util.Optional<Answer> parse(String stdout) {
        List<String> lines = stdout.strip().lines().toList();
        if (lines.isEmpty()) return java.util.Optional.empty();
        String[] a = lines.getFirst().split(" ", 2);
        if (a.length != 2 || !DIR.matcher(a[1]).matches()) return java.util.Optional.empty();
        if (!a[0].equals("present") && !a[0].equals("absent")) return java.util.Optional.empty();
        java.util.Optional<String> arch = lines.stream().skip(1).filter(l -> l.startsWith("arch ")).findFirst()
                .map(l -> l.substring("arch ".length()).strip()).filter(m -> !m.isEmpty());
        return java.util.Optional.of(new Answer(a[0].equals("present"), a[1], arch));
    }

    /** Where the node keeps this version, whether it is there, and the node's machine ({@code uname -m}) if it said. */
    record Answer(boolean present, String dir, java.util.Optional<String> arch) {
        String railyard() {
            return dir + "/bin/railyard";
        }
    }
}

package dev.railyard.collect;

import dev.railyard.model.HostInfo;
import dev.railyard.model.HostInfo.MemlockLimit;
import dev.railyard.model.Reading;
import dev.railyard.model.ValueText;
import dev.railyard.platform.HostRoot;

import java.math.BigInteger;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** OS, kernel, memlock, socket buffers, CPU governors, watched modules and NVMe devices. */
public final class HostCollector implements Collector<HostInfo> {

    private static final String MEMLOCK_LABEL = "Max locked memory";
    /**
     * net.core.rmem_max/wmem_max are C ints in the kernel (proc_dointvec_minmax): a larger value cannot come from a
     * kernel, so it is a failed reading rather than a huge buffer that passes.
     */
    static final long SYSCTL_INT_MAX = Integer.MAX_VALUE;
    /** cpufreq governor names: "performance", "schedutil", "ondemand"... */
    private static final java.util.regex.Pattern GOVERNOR = java.util.regex.Pattern.compile("[a-z][a-z0-9_]{0,31}");

    private final NvmeCollector nvme = new NvmeCollector();

    @Override
    public HostInfo collect(HostRoot root) {
        return new HostInfo(os(root), root.read("proc/sys/kernel/osrelease"), memlock(root),
                root.readLong("proc/sys/net/core/rmem_max", 0, SYSCTL_INT_MAX),
                root.readLong("proc/sys/net/core/wmem_max", 0, SYSCTL_INT_MAX),
                governors(root), modules(root), nvme.collect(root), NcclVersionReader.read(root));
    }

    /** PRETTY_NAME; os-release(5) says to fall back to usr/lib/os-release when etc/os-release is missing. */
    static Reading<String> os(HostRoot root) {
        String file = root.exists("etc/os-release") ? "etc/os-release" : "usr/lib/os-release";
        Reading<String> text = root.read(file);
        if (!(text instanceof Reading.Present<String>(String content))) return text;
        for (String line : content.lines().toList()) {
            if (line.startsWith("PRETTY_NAME=")) return Reading.of(unquote(line.substring("PRETTY_NAME=".length())));
        }
        return Reading.absent("no PRETTY_NAME in " + file);
    }

    private static String unquote(String value) {
        String v = value.trim();
        if (v.length() >= 2 && (v.charAt(0) == '"' || v.charAt(0) == '\'') && v.charAt(v.length() - 1) == v.charAt(0)) {
            v = v.substring(1, v.length() - 1);
        }
        return v.replaceAll("\\\\(.)", "$1");
    }

    /** The soft RLIMIT_MEMLOCK of this process, which is what RDMA memory registration is held to. */
    static Reading<MemlockLimit> memlock(HostRoot root) {
        String file = "proc/self/limits";
        Reading<List<String>> lines = root.readLines(file);
        if (!(lines instanceof Reading.Present<List<String>>(List<String> all))) return lines.map(l -> null);
        for (String line : all) {
            if (!line.startsWith(MEMLOCK_LABEL)) continue;
            String[] cols = line.substring(MEMLOCK_LABEL.length()).trim().split("\\s+");
            if (cols.length == 0 || cols[0].isEmpty()) return Reading.failed(file, "no soft limit in: " + line);
            if (cols[0].equals("unlimited")) return Reading.of(new MemlockLimit(true, -1));
            try {
                BigInteger bytes = new BigInteger(cols[0]);
                // Values past 2^63 (seen in procfs fixtures) are as good as unlimited but are not RLIM_INFINITY.
                long clamped = bytes.bitLength() < 64 ? bytes.longValueExact() : Long.MAX_VALUE;
                return Reading.of(new MemlockLimit(false, clamped));
            } catch (NumberFormatException e) {
                return Reading.failed(file, "not a number: " + ValueText.quote(cols[0]));
            }
        }
        return Reading.absent("no \"" + MEMLOCK_LABEL + "\" line in " + file);
    }

    /** How many CPUs run each cpufreq governor ("performance" -> 64). */
    static Reading<Map<String, Integer>> governors(HostRoot root) {
        Map<String, Integer> counts = new TreeMap<>();
        for (String cpu : root.list("sys/devices/system/cpu")) {
            if (!cpu.matches("cpu[0-9]+")) continue;
            String path = "sys/devices/system/cpu/" + cpu + "/cpufreq/scaling_governor";
            Reading<String> g = root.read(path);
            // one unreadable CPU leaves "every CPU on performance" unknown: fail the whole reading, naming it
            if (g instanceof Reading.Failed<String> f) return Reading.failed(f.path(), f.cause());
            if (g instanceof Reading.Absent<String> && root.isDirectory("sys/devices/system/cpu/" + cpu + "/cpufreq")) {
                return Reading.failed(path, "missing from a cpufreq directory");
            }
            if (g instanceof Reading.Present<String>(String name)) {
                if (!GOVERNOR.matcher(name).matches()) return Reading.failed(path, "not a governor: " + ValueText.quote(name));
                counts.merge(name, 1, Integer::sum);
            }
        }
        return counts.isEmpty() ? Reading.absent("no cpufreq (VM or driver not loaded)") : Reading.of(counts);
    }

    /**
     * Which of {@link HostInfo#WATCHED_MODULES} are loaded. proc/modules lists loadable modules with '_' for '-'
     * (nvidia-peermem shows as nvidia_peermem); sys/module also has the ones built into the kernel.
     */
    static Reading<Map<String, Boolean>> modules(HostRoot root) {
        Reading<List<String>> lines = root.readLines("proc/modules");
        if (!(lines instanceof Reading.Present<List<String>>(List<String> all))) return lines.map(l -> null);
        Set<String> loaded = new HashSet<>();
        for (String line : all) {
            int space = line.indexOf(' ');
            if (space > 0) loaded.add(line.substring(0, space));
        }
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (String m : HostInfo.WATCHED_MODULES) {
            out.put(m, loaded.contains(m) || root.isDirectory("sys/module/" + m));
        }
        return Reading.of(out);
    }
}

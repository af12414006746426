package dev.railyard.collect;

import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NCCL's version on a node, from the library file the dynamic loader finds, without loading it (libnccl is hundreds
 * of megabytes; the inventory stays quick): NCCL's packages and its {@code make install} write {@code libnccl.so.2}
 * as a link to {@code libnccl.so.2.X.Y}, so the link's target names the version. The directories are searched in
 * the order of the distributions' loader paths; the first that has {@code libnccl.so.2} answers.
 */
final class NcclVersionReader {

    static final List<String> DIRECTORIES = List.of("usr/lib/x86_64-linux-gnu", "usr/lib/aarch64-linux-gnu",
            "usr/lib64", "usr/local/cuda/lib64", "usr/lib");
    private static final String SONAME = "libnccl.so.2";
    private static final Pattern VERSIONED = Pattern.compile("libnccl\\.so\\.(\\d+\\.\\d+\\.\\d+)");

    private NcclVersionReader() {
    }

    static Reading<String> read(HostRoot root) {
        for (String dir : DIRECTORIES) {
            String lib = dir + "/" + SONAME;
            if (!root.exists(lib)) continue;
            Reading<String> target = root.linkName(lib);
            if (target instanceof Reading.Present<String>(String name)) {
                Matcher m = VERSIONED.matcher(name);
                return m.matches() ? Reading.of(m.group(1))
                        : Reading.failed(lib, "links to " + name + ", a name without NCCL's version");
            }
            // a copied library, not a link: the one versioned file beside it names the version
            List<String> versions = root.list(dir).stream().map(VERSIONED::matcher).filter(Matcher::matches)
                    .map(m -> m.group(1)).distinct().toList();
            if (versions.size() == 1) return Reading.of(versions.getFirst());
            return Reading.failed(lib, versions.isEmpty() ? "not a link, and no libnccl.so.2.X.Y beside it"
                    : "not a link, and several versions beside it: " + String.join(", ", versions));
        }
        return Reading.absent("no " + SONAME + " in " + String.join(", ", DIRECTORIES.stream().map(d -> "/" + d).toList()));
    }
}

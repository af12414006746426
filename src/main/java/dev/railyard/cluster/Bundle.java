package dev.railyard.cluster;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * A self-contained Railyard (jlink'd runtime, the jar and its libraries, {@code bin/railyard}) as one tar.gz; its
 * {@code hash} names the version on nodes, so a node holding the same hash needs no copy.
 */
public record Bundle(Path tarball, String hash) {

    private static final Pattern HASH = Pattern.compile("[0-9a-f]{16,64}");

    public Bundle {
        if (!HASH.matcher(hash).matches()) throw new IllegalArgumentException("not a bundle hash: " + hash);
    }
}

package dev.railyard.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
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

    /** A tarball made earlier by {@code railyard bundle}, named on nodes by a hash of the file itself. */
    public static Bundle fromFile(Path tarball) {
        try (InputStream in = new DigestInputStream(Files.newInputStream(tarball),
                MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            String hash = HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
            return new Bundle(tarball.toAbsolutePath(), hash.substring(0, 20));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundle " + tarball, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

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
import java.util.Optional;
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

    /**
     * A tarball made earlier by {@code railyard bundle}: named on nodes by the hash its BUNDLE file states, the one
     * validate's own bundle of the same build has, so nodes keep one copy of it whichever way it came; a tarball
     * without one is named by a hash of the file itself.
     */
    public static Bundle fromFile(Path tarball) {
        Optional<String> stated = statedHash(tarball);
        if (stated.isPresent()) return new Bundle(tarball.toAbsolutePath(), stated.get());
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

    /** The machine ({@code uname -m}) the bundle's runtime is built for; empty when it cannot be read. */
    public static Optional<String> machine(Bundle bundle) {
        return BundleArchitecture.of(bundle.tarball());
    }

    /** The hash on the first line of the tarball's BUNDLE file ("railyard bundle HASH"), read without unpacking. */
    static Optional<String> statedHash(Path tarball) {
        try (InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(tarball), 1 << 16)) {
            byte[] header = new byte[512];
            while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
                String name = field(header, 0, 100);
                long size = Long.parseLong(field(header, 124, 12).strip().isEmpty() ? "0" : field(header, 124, 12).strip(), 8);
                long padded = (size + 511) / 512 * 512;
                if ((name.equals("BUNDLE") || name.equals("./BUNDLE")) && size < 4096) {
                    String text = new String(in.readNBytes((int) size), java.nio.charset.StandardCharsets.UTF_8);
                    java.util.regex.Matcher m = STATED.matcher(text.lines().findFirst().orElse(""));
                    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
                }
                in.skipNBytes(padded);
            }
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // not a gzip'd tar of ours: the file's own hash names it
        }
    }

    private static final Pattern STATED = Pattern.compile("railyard bundle ([0-9a-f]{16,64})");

    private static String field(byte[] header, int at, int length) {
        int end = at;
        while (end < at + length && header[end] != 0) end++;
        return new String(header, at, end - at, java.nio.charset.StandardCharsets.US_ASCII);
    }
}

package dev.railyard.platform;

import dev.railyard.model.Reading;
import dev.railyard.nativelib.OpenInRoot;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads one file as text without ever blocking or swallowing a huge one: the file type is checked before opening
 * (opening a FIFO for reading blocks until a writer comes, and plain Java cannot open with O_NONBLOCK), at most
 * {@code maxBytes} are read, and the bytes must be UTF-8 text without NULs.
 */
final class BoundedRead {

    private BoundedRead() {}

    /** {@code p} is already resolved; {@code name} is the root-relative path failures carry. */
    static Reading<String> text(Path p, String name, int maxBytes) {
        Path abs = p.toAbsolutePath();
        Reading<String> opened = opened(abs.getRoot(), HostRoot.below(abs.getRoot(), abs.normalize()), name, maxBytes, true);
        if (opened != null) return opened;
        Reading<String> type = typeCheck(p, name);
        return type != null ? type : regularFile(p, name, maxBytes);
    }

    /**
     * {@code relative} under {@code root}, opened without following a symlink as its last name and without blocking,
     * its type judged on the descriptor opened: a FIFO or symlink swapped in after the tree was resolved is refused,
     * never waited on or followed out of the tree. Falls back to the plain read where native calls are unavailable.
     */
    static Reading<String> confined(Path root, String relative, Path real, String name, int maxBytes) {
        Reading<String> opened = opened(root, relative, name, maxBytes, false);
        return opened != null ? opened : regularFile(real, name, maxBytes);
    }

    /** Null when native calls are unavailable here. */
    private static Reading<String> opened(Path root, String relative, String name, int maxBytes, boolean followLast) {
        return switch (OpenInRoot.read(root, relative, maxBytes, followLast)) {
            case OpenInRoot.Outcome.Read(byte[] bytes) -> bytes.length > maxBytes
                    ? Reading.failed(name, "larger than " + maxBytes + " bytes: not read") : text(bytes, name);
            case OpenInRoot.Outcome.NotRegular(String kind) -> Reading.failed(name,
                    kind.equals("a directory") ? NOT_A_FILE : "not a regular file (" + kind + "): not read");
            case OpenInRoot.Outcome.Missing m -> Reading.absent("no " + name);
            case OpenInRoot.Outcome.Failed(int errno, String message) -> Reading.failed(name,
                    errno == 13 ? "permission denied" : message);
            case OpenInRoot.Outcome.Names n -> Reading.failed(name, NOT_A_FILE);
            case OpenInRoot.Outcome.Found f -> Reading.failed(name, f.kind());
            case OpenInRoot.Outcome.Unsupported u -> null;
        };
    }

    /** Null when {@code p} is a regular file; else why it is not read. */
    static Reading<String> typeCheck(Path p, String name) {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return Files.isSymbolicLink(p) ? Reading.failed(name, "dangling symlink") : Reading.absent("no " + name);
        } catch (IOException e) {
            return Reading.failed(name, RootConfinement.message(e));
        }
        if (attrs.isDirectory()) return Reading.failed(name, NOT_A_FILE);
        if (!attrs.isRegularFile()) return Reading.failed(name, NOT_REGULAR);
        return null;
    }

    static final String NOT_A_FILE = "a directory, not an attribute file";
    static final String NOT_REGULAR = "not a regular file (a FIFO, socket or device): not read";

    /**
     * The newest {@code maxBytes} of a log that may be larger (a dmesg saved with a big log_buf_len): read from the
     * first whole line after the cut, so the newest records are judged rather than the whole file refused.
     */
    static Reading<String> tail(Path p, String name, int maxBytes) {
        byte[] bytes;
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(p, java.nio.file.StandardOpenOption.READ)) {
            long size = ch.size();
            if (size <= maxBytes) return regularFile(p, name, maxBytes);
            ByteBuffer buf = ByteBuffer.allocate(maxBytes);
            long at = size - maxBytes;
            while (buf.hasRemaining()) {
                int n = ch.read(buf, at + buf.position());
                if (n < 0) break;
            }
            bytes = java.util.Arrays.copyOf(buf.array(), buf.position());
        } catch (NoSuchFileException e) {
            return Reading.absent("no " + name);
        } catch (AccessDeniedException e) {
            return Reading.failed(name, "permission denied");
        } catch (IOException e) {
            return Reading.failed(name, RootConfinement.message(e));
        }
        int start = 0;
        while (start < bytes.length && bytes[start] != '\n') start++;
        return text(java.util.Arrays.copyOfRange(bytes, Math.min(bytes.length, start + 1), bytes.length), name);
    }

    /** {@code p} is known to be a regular file (lstat'ed while resolving it inside the root). */
    static Reading<String> regularFile(Path p, String name, int maxBytes) {
        byte[] bytes;
        // Stream to EOF: sysfs/procfs report sizes (4096, 0, or on some kernels a wrong small one) that
        // Files.readString would trust and cut the value short.
        try (InputStream in = Files.newInputStream(p)) {
            bytes = in.readNBytes(maxBytes + 1);
        } catch (NoSuchFileException e) {
            return Reading.absent("no " + name);
        } catch (AccessDeniedException e) {
            return Reading.failed(name, "permission denied");
        } catch (IOException e) {
            return Reading.failed(name, RootConfinement.message(e));
        }
        if (bytes.length > maxBytes) return Reading.failed(name, "larger than " + maxBytes + " bytes: not read");
        return text(bytes, name);
    }

    static Reading<String> text(byte[] bytes, String name) {
        boolean ascii = true;
        for (byte b : bytes) {
            if (b == 0) return Reading.failed(name, "binary content (NUL bytes), not text");
            if (b < 0) ascii = false;
        }
        // nearly every attribute is ASCII: one copy into the string, no decoder and no char buffer
        if (ascii) return Reading.of(new String(bytes, StandardCharsets.US_ASCII));
        try {
            return Reading.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            return Reading.failed(name, "not UTF-8 text");
        }
    }

}

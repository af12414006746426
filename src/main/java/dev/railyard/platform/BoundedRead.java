package dev.railyard.platform;

import dev.railyard.model.Reading;

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
        return regularFile(p, name, maxBytes);
    }

    static final String NOT_A_FILE = "a directory, not an attribute file";
    static final String NOT_REGULAR = "not a regular file (a FIFO, socket or device): not read";

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
        for (byte b : bytes) {
            if (b == 0) return Reading.failed(name, "binary content (NUL bytes), not text");
        }
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

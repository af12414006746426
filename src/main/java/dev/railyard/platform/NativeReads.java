package dev.railyard.platform;

import dev.railyard.model.Reading;
import dev.railyard.nativelib.OpenInRoot;
import dev.railyard.nativelib.OpenInRoot.Confine;
import dev.railyard.nativelib.OpenInRoot.Outcome;

import java.nio.file.Path;
import java.util.List;

/**
 * {@link HostRoot}'s listings, tails, links and lookups through {@link OpenInRoot}: confined by the kernel, names as
 * the kernel has them (escaped by {@link FileNameText}), a FIFO never waited on. Each answers null where native calls
 * are unavailable, and the caller reads the plain way.
 */
final class NativeReads {

    private NativeReads() {}

    /** The names in a directory, escaped and sorted. */
    static Reading<List<String>> listing(Path root, String relative, Confine confine, String name) {
        return switch (OpenInRoot.list(root, FileNameText.bytes(relative), confine, false)) {
            case Outcome.Names(List<byte[]> names) ->
                    Reading.of(names.stream().map(FileNameText::of).sorted(NaturalOrder.INSTANCE).toList());
            case Outcome.Failed(int errno, String why) when errno == 20 -> Reading.failed(name, "not a directory");
            case Outcome.Unsupported u -> null;
            case Outcome other -> failure(other, name);
        };
    }

    /** The newest {@code maxBytes} of a text file, from its first whole line. */
    static Reading<String> tail(Path root, String relative, Confine confine, boolean followLast, String name, int maxBytes) {
        return switch (OpenInRoot.tail(root, FileNameText.bytes(relative), confine, maxBytes, followLast, false)) {
            case Outcome.Read(byte[] bytes) -> BoundedRead.text(bytes, name);
            case Outcome.Unsupported u -> null;
            case Outcome other -> failure(other, name);
        };
    }

    /** A whole text file of at most {@code maxBytes}. */
    static Reading<String> text(Path root, String relative, Confine confine, boolean followLast, String name, int maxBytes) {
        return switch (OpenInRoot.read(root, FileNameText.bytes(relative), confine, maxBytes, followLast, false)) {
            case Outcome.Read(byte[] bytes) -> bytes.length > maxBytes
                    ? Reading.failed(name, "larger than " + maxBytes + " bytes: not read") : BoundedRead.text(bytes, name);
            case Outcome.Unsupported u -> null;
            case Outcome other -> failure(other, name);
        };
    }

    /** A symlink's target as written. */
    static Reading<String> readLink(Path root, String relative, Confine confine, String name) {
        return switch (OpenInRoot.readLink(root, FileNameText.bytes(relative), confine, false)) {
            case Outcome.Read(byte[] bytes) -> Reading.of(FileNameText.of(bytes));
            case Outcome.NotRegular(String kind) -> Reading.failed(name, "not a symlink");
            case Outcome.Unsupported u -> null;
            case Outcome other -> failure(other, name);
        };
    }

    /** The real path below the root, escaped. */
    static Reading<String> realPath(Path root, String relative, Confine confine, String name) {
        return switch (OpenInRoot.realPath(root, FileNameText.bytes(relative), confine, false)) {
            case Outcome.Read(byte[] bytes) -> Reading.of(FileNameText.of(bytes));
            case Outcome.Unsupported u -> null;
            case Outcome other -> failure(other, name);
        };
    }

    /** What kind of thing is there ("a directory", "a regular file"), absent or refused; null if unsupported. */
    static Reading<String> kind(Path root, String relative, Confine confine, String name) {
        return switch (OpenInRoot.find(root, FileNameText.bytes(relative), confine, false)) {
            case Outcome.Found(String kind) -> Reading.of(kind);
            case Outcome.Unsupported u -> null;
            case Outcome other -> failure(other, name);
        };
    }

    private static <T> Reading<T> failure(Outcome o, String name) {
        return switch (o) {
            case Outcome.Missing m -> Reading.absent("no " + name);
            case Outcome.Failed(int errno, String why) -> Reading.failed(name, errno == 13 ? "permission denied" : why);
            case Outcome.NotRegular(String kind) -> Reading.failed(name, kind.equals("a directory")
                    ? BoundedRead.NOT_A_FILE : "not a regular file (" + kind + "): not read");
            case Outcome.Found(String kind) -> Reading.failed(name, kind);
            case Outcome.Names n -> Reading.failed(name, "a directory");
            case Outcome.Read r -> Reading.failed(name, "unexpected contents");
            case Outcome.Unsupported(String why) -> Reading.failed(name, why);
        };
    }
}

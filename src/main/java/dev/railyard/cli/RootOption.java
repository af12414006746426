package dev.railyard.cli;

import dev.railyard.model.RailyardException;
import dev.railyard.platform.HostRoot;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** --root DIR: read an unpacked capture or test tree instead of this machine. Shared by inventory, check, init. */
public final class RootOption {

    @Option(names = "--root", paramLabel = "DIR",
            description = "Read sys/, proc/ and etc/ under DIR (an unpacked 'railyard capture') instead of this machine.")
    Path root;

    /** What every capture and test tree holds at least one of. */
    private static final List<String> CAPTURE_DIRS = List.of("sys", "proc", "railyard");

    /** A capture unpacked into root/NAME/ (tar -xzf node.tgz -C root): the one subdirectory that is one. */
    private static java.util.Optional<Path> unpackedBelow(Path root) {
        try (java.util.stream.Stream<Path> s = Files.list(root)) {
            List<Path> captures = s.filter(Files::isDirectory)
                    .filter(d -> CAPTURE_DIRS.stream().anyMatch(c -> Files.isDirectory(d.resolve(c)))).toList();
            return captures.size() == 1 ? java.util.Optional.of(captures.getFirst()) : java.util.Optional.empty();
        } catch (java.io.IOException e) {
            return java.util.Optional.empty();
        }
    }

    public HostRoot hostRoot() {
        if (root == null) return HostRoot.live();
        if (!Files.isDirectory(root)) {
            throw new RailyardException.Usage("--root " + root + " is not a directory",
                    "unpack a capture first: tar -xzf node.tgz && railyard inventory --root node");
        }
        // An empty or unrelated directory would read as a node with nothing on it: every check silently quiet.
        if (CAPTURE_DIRS.stream().noneMatch(d -> Files.isDirectory(root.resolve(d)))) {
            throw new RailyardException.Usage("--root " + root + " is not a capture: it has none of "
                    + String.join("/, ", CAPTURE_DIRS) + "/", unpackedBelow(root)
                    .map(d -> "the capture is one level down: --root " + d)
                    .orElse("point --root at the directory a capture was unpacked into (it holds sys/ and proc/)"));
        }
        return HostRoot.at(root);
    }
}

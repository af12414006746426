package dev.railyard.cli;

import dev.railyard.model.RailyardException;
import dev.railyard.platform.HostRoot;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;

/** --root DIR: read an unpacked capture or test tree instead of this machine. Shared by inventory, check, init. */
public final class RootOption {

    @Option(names = "--root", paramLabel = "DIR",
            description = "Read sys/, proc/ and etc/ under DIR (an unpacked 'railyard capture') instead of this machine.")
    Path root;

    /** What every capture and test tree holds at least one of. */
    private static final java.util.List<String> CAPTURE_DIRS = java.util.List.of("sys", "proc", "railyard");

    public HostRoot hostRoot() {
        if (root == null) return HostRoot.live();
        if (!Files.isDirectory(root)) {
            throw new RailyardException.Usage("--root " + root + " is not a directory",
                    "unpack a capture first: mkdir node && tar -xzf node.tgz -C node");
        }
        // An empty or unrelated directory would read as a node with nothing on it: every check silently quiet.
        if (CAPTURE_DIRS.stream().noneMatch(d -> Files.isDirectory(root.resolve(d)))) {
            throw new RailyardException.Usage("--root " + root + " is not a capture: it has none of "
                    + String.join("/, ", CAPTURE_DIRS) + "/",
                    "point --root at the directory a capture was unpacked into (it holds sys/ and proc/)");
        }
        return HostRoot.at(root);
    }
}

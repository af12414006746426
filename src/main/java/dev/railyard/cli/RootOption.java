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

    public HostRoot hostRoot() {
        if (root == null) return HostRoot.live();
        if (!Files.isDirectory(root)) {
            throw new RailyardException.Usage("--root " + root + " is not a directory",
                    "unpack a capture first: mkdir node && tar -xzf node.tgz -C node");
        }
        return HostRoot.at(root);
    }
}

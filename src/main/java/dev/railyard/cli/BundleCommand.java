package dev.railyard.cli;

import dev.railyard.cluster.Bundle;
import dev.railyard.cluster.BundleBuilder;
import dev.railyard.model.RailyardException;
import dev.railyard.platform.CommandRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

@Command(name = "bundle",
        mixinStandardHelpOptions = true,
        description = {
                "Write Railyard as one self-contained tarball for machines without Java.",
                "",
                "The tarball holds a Java runtime made with jlink (only the modules Railyard needs), this Railyard's "
                        + "jar and libraries, and bin/railyard to start it. Its name carries a hash of its contents: "
                        + "validate --launcher ssh copies it to each node that lacks that hash, into the node's "
                        + "~/.cache/railyard/HASH, and runs it from there; a version unused there for 14 days is "
                        + "removed. Bundles are kept in the cache directory, so the second call for the same version "
                        + "is instant."},
        footer = {"", "Examples:",
                "  railyard bundle                         # ./railyard-HASH.tar.gz",
                "  railyard bundle --out /shared/railyard.tar.gz",
                "  mkdir ry && tar -xzf railyard-*.tar.gz -C ry && ry/bin/railyard inventory"})
public final class BundleCommand implements Callable<Integer> {

    @Option(names = "--out", paramLabel = "FILE",
            description = "Where to write the tarball (default: railyard-HASH.tar.gz in this directory).")
    Path out;

    @Option(names = "--force", description = "Overwrite FILE if it exists.")
    boolean force;

    @Option(names = "--cache-dir", paramLabel = "DIR",
            description = "Where bundles are kept (default: $XDG_CACHE_HOME/railyard, else ~/.cache/railyard).")
    Path cacheDir;

    @Spec
    CommandSpec spec;

    private final Supplier<List<Path>> classPath;

    public BundleCommand() {
        this(BundleBuilder::thisClassPath);
    }

    /** {@code classPath} is what goes into the bundle (tests name their build's classes and libraries). */
    BundleCommand(Supplier<List<Path>> classPath) {
        this.classPath = classPath;
    }

    @Override
    public Integer call() {
        // the destination is checked before the bundle is built (a minute of jlink on a small machine)
        if (out != null) {
            OutputChecks.file("--out", out, false);
            if (Files.exists(out) && !force) {
                throw new RailyardException.Usage(out + " already exists", "choose another --out or add --force");
            }
        } else {
            OutputChecks.file("the bundle's destination", Path.of("railyard.tar.gz"), false);
        }
        Path cache = cacheDir != null ? cacheDir : BundleBuilder.userCacheDir();
        Bundle bundle = new BundleBuilder(Path.of(System.getProperty("java.home")), cache, CommandRunner.system())
                .bundle(classPath.get());
        Path target = out != null ? out : Path.of("railyard-" + bundle.hash() + ".tar.gz");
        if (Files.exists(target) && !force) {
            throw new RailyardException.Usage(target + " already exists", "choose another --out or add --force");
        }
        try {
            Files.copy(bundle.tarball(), target, StandardCopyOption.REPLACE_EXISTING);
            BundleBuilder.readableByAll(target);
            PrintWriter w = spec.commandLine().getOut();
            w.printf("wrote %s: bundle %s, %.1f MB (kept in %s)%n", target, bundle.hash(),
                    Files.size(target) / 1e6, bundle.tarball().getParent());
            w.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target, e);
        }
        return ExitCodes.OK;
    }
}

package dev.railyard.cli;

import dev.railyard.cluster.Bundle;
import dev.railyard.cluster.BundleBuilder;
import dev.railyard.cluster.Launcher;
import dev.railyard.cluster.RemoteRailyard;
import dev.railyard.cluster.SlurmLauncher;
import dev.railyard.cluster.SshKeyFiles;
import dev.railyard.cluster.SshLauncher;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import dev.railyard.platform.CommandRunner;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How Railyard gets onto the nodes for the ssh and slurm launchers (a mixin of validate): a bundle built from this
 * Railyard (the default), a bundle file made earlier, or a path where every node already has it.
 */
public final class RemoteLauncherOptions {

    @Option(names = "--bundle", paramLabel = "FILE",
            description = "Copy this tarball (from railyard bundle) to nodes that lack it, instead of building one "
                    + "from this Railyard. Repeat it with one bundle per machine (uname -m): each node gets the one "
                    + "built for its machine.")
    List<Path> bundles = new ArrayList<>();

    @Option(names = "--railyard-path", paramLabel = "PATH",
            description = "Railyard is already at this absolute path on every node (a shared directory): copy "
                    + "nothing.")
    String railyardPath;

    public Launcher ssh(ClusterSpec spec, PrintWriter err) {
        for (String w : SshKeyFiles.warnings(spec)) err.println("railyard: warning: " + w);
        err.flush();
        // a master connection per node unless the environment says the nodes' sshd allows one session per connection
        boolean multiplex = !"no".equals(System.getenv("RAILYARD_SSH_MULTIPLEX"));
        return new SshLauncher(spec, railyard(err), "ssh", multiplex);
    }

    /** Steps inside this process's Slurm allocation (SLURM_JOB_ID), else in one asked for with salloc. */
    public Launcher slurm(ClusterSpec spec, PrintWriter err) {
        return new SlurmLauncher(spec, railyard(err), Map.copyOf(System.getenv()), CommandRunner.system());
    }

    RemoteRailyard railyard(PrintWriter err) {
        if (!bundles.isEmpty() && railyardPath != null) {
            throw new RailyardException.Usage("--bundle and --railyard-path exclude each other",
                    "give --bundle to copy a tarball, --railyard-path when the nodes have Railyard already");
        }
        if (railyardPath != null) {
            if (!railyardPath.startsWith("/")) {
                throw new RailyardException.Usage("--railyard-path must be absolute, got " + railyardPath,
                        "e.g. --railyard-path /shared/railyard/bin/railyard");
            }
            return new RemoteRailyard.AtPath(railyardPath);
        }
        if (!bundles.isEmpty()) {
            List<Bundle> given = new ArrayList<>();
            Map<String, Path> byMachine = new LinkedHashMap<>();
            for (Path file : bundles) {
                if (!Files.isRegularFile(file)) {
                    throw new RailyardException.Usage("--bundle " + file + " is not a file", "make one with: "
                            + "railyard bundle --out " + file);
                }
                Bundle b = Bundle.fromFile(file);
                Optional<String> machine = Bundle.machine(b);
                if (machine.isPresent()) {
                    Path earlier = byMachine.putIfAbsent(machine.get(), file);
                    if (earlier != null) {
                        throw new RailyardException.Usage("--bundle " + earlier + " and --bundle " + file
                                + " are both built for " + machine.get(), "give one bundle per machine");
                    }
                }
                given.add(b);
            }
            return new RemoteRailyard.FromBundle(given);
        }
        err.println("railyard: preparing the bundle for the nodes (built once per version, then cached)");
        err.flush();
        Bundle built = new BundleBuilder(Path.of(System.getProperty("java.home")), BundleBuilder.userCacheDir(),
                CommandRunner.system()).bundle(BundleBuilder.thisClassPath());
        return new RemoteRailyard.FromBundle(built);
    }
}

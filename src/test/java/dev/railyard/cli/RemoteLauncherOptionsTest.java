package dev.railyard.cli;

import dev.railyard.cluster.Bundle;
import dev.railyard.cluster.BundleBuilder;
import dev.railyard.cluster.RemoteRailyard;
import dev.railyard.model.RailyardException;
import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code --bundle} given once per machine: the bundles are all offered to the nodes; two of one machine is exit 2. */
class RemoteLauncherOptionsTest {

    @Test
    void twoBundlesOfOneMachineAreAUsageError(@TempDir Path dir) throws Exception {
        List<Path> cp = new ArrayList<>(List.of(Path.of("target", "classes").toAbsolutePath()));
        try (Stream<Path> libs = Files.list(Path.of("target", "lib"))) {
            libs.filter(p -> p.toString().endsWith(".jar")).sorted().map(Path::toAbsolutePath).forEach(cp::add);
        }
        Path built = new BundleBuilder(Path.of(System.getProperty("java.home")),
                Path.of("target", "bundle-cache").toAbsolutePath(), CommandRunner.system()).bundle(cp).tarball();
        Path copy = Files.copy(built, dir.resolve("again.tar.gz"));
        RemoteLauncherOptions options = new RemoteLauncherOptions();
        PrintWriter err = new PrintWriter(new StringWriter());

        options.bundles = List.of(built);
        assertThat(options.railyard(err)).isInstanceOfSatisfying(RemoteRailyard.FromBundle.class,
                b -> assertThat(b.bundles()).hasSize(1));

        options.bundles = List.of(built, copy);
        assertThatThrownBy(() -> options.railyard(err)).isInstanceOf(RailyardException.Usage.class)
                .hasMessage("--bundle " + built + " and --bundle " + copy + " are both built for "
                        + Bundle.machine(Bundle.fromFile(built)).orElseThrow());
    }
}

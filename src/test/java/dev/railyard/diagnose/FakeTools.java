package dev.railyard.diagnose;

import dev.railyard.platform.CommandRunner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * A CommandRunner that runs argv[0] from a folder of small fake executables instead of PATH, so runners are tested
 * end to end (argv, process, stdout, parser) without the real tool.
 */
public final class FakeTools {

    private FakeTools() {
    }

    /** Writes an executable script {@code name} in {@code dir} that prints {@code resource} (header stripped). */
    public static void install(Path dir, String name, String resource) {
        try {
            Path out = dir.resolve(name + ".out");
            Files.writeString(out, RealSample.text(resource));
            Path script = dir.resolve(name);
            Files.writeString(script, "#!/bin/sh\necho \"$@\" > \"" + dir.resolve(name + ".argv") + "\"\ncat \"" + out + "\"\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static CommandRunner in(Path dir) {
        CommandRunner real = CommandRunner.system();
        return (argv, timeout, cwd, env) -> {
            List<String> moved = new ArrayList<>(argv);
            moved.set(0, dir.resolve(argv.getFirst()).toString());
            return real.run(moved, timeout, cwd, env);
        };
    }
}

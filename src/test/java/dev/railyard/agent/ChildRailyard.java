package dev.railyard.agent;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** `railyard ARGS` in a child JVM on the test classpath, with its own environment (SLURM_CONF, RAILYARD_NVML). */
final class ChildRailyard {

    private ChildRailyard() {
    }

    static ProcessBuilder command(Map<String, String> env, String... args) {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                "dev.railyard.cli.Main"));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().putAll(env);
        return pb;
    }

    static Process start(Map<String, String> env, String... args) throws IOException {
        return command(env, args).start();
    }
}

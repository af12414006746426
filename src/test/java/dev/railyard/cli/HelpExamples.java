package dev.railyard.cli;

import picocli.CommandLine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The examples of every help page, and a sandbox to run them in: a directory with the files they name (a spec, a
 * captured node, real tool outputs), a {@code railyard} on PATH that starts this build, and HOME and the history
 * database inside the sandbox.
 */
final class HelpExamples {

    private HelpExamples() {
    }

    /** Every example line (continuations joined, trailing "# comment" dropped), keyed by its text, with its page. */
    static Map<String, String> all() {
        Map<String, String> out = new LinkedHashMap<>();
        collect(Main.commandLine(), out);
        return out;
    }

    private static void collect(CommandLine cl, Map<String, String> out) {
        String[] footer = cl.getCommandSpec().usageMessage().footer();
        boolean in = false;
        StringBuilder pending = new StringBuilder();
        for (String line : footer) {
            if (line.startsWith("Example")) {
                in = true;
            } else if (in && line.isBlank()) {
                in = false;
            } else if (in) {
                pending.append(pending.isEmpty() ? "" : " ").append(line.strip());
                if (pending.toString().endsWith("\\")) {
                    pending.setLength(pending.length() - 1);
                    pending.setLength(pending.toString().stripTrailing().length());
                    continue;
                }
                out.put(dropComment(pending.toString()), cl.getCommandSpec().qualifiedName());
                pending.setLength(0);
            }
        }
        cl.getSubcommands().values().forEach(sub -> collect(sub, out));
    }

    /** "railyard bundle   # ./railyard-HASH.tar.gz" without its comment; a '#' inside quotes stays. */
    static String dropComment(String line) {
        boolean single = false, dbl = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'' && !dbl) single = !single;
            else if (c == '"' && !single) dbl = !dbl;
            else if (c == '#' && !single && !dbl && i > 0 && Character.isWhitespace(line.charAt(i - 1))) {
                return line.substring(0, i).strip();
            }
        }
        return line.strip();
    }

    /** What one run of an example printed (stdout and stderr together) and its exit status. */
    record Outcome(int code, String output) {
    }

    /** The sandbox: fixtures in {@code work}, a {@code railyard} on PATH, HOME and XDG_DATA_HOME under it. */
    record Sandbox(Path dir, Path bin, Path home) {

        static Sandbox create(Path dir) throws IOException {
            Path bin = Files.createDirectories(dir.resolve("bin"));
            Path home = Files.createDirectories(dir.resolve("home"));
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Path railyard = bin.resolve("railyard");
            Files.writeString(railyard, "#!/bin/bash\nexec '" + java + "' -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
                    + " --enable-native-access=ALL-UNNAMED -Duser.home='" + home + "' -cp '"
                    + System.getProperty("java.class.path") + "' " + Main.class.getName() + " \"$@\"\n");
            Files.setPosixFilePermissions(railyard, PosixFilePermissions.fromString("rwxr-xr-x"));
            return new Sandbox(dir, bin, home);
        }

        /** A fresh working directory holding the fixtures, so no example sees another's files. */
        Path work(String name, Map<String, String> files, Map<String, Path> links) throws IOException {
            Path w = Files.createDirectories(dir.resolve("work").resolve(name));
            for (var f : files.entrySet()) {
                Path p = w.resolve(f.getKey());
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.getValue());
            }
            for (var l : links.entrySet()) Files.createSymbolicLink(w.resolve(l.getKey()), l.getValue().toAbsolutePath());
            return w;
        }

        ProcessBuilder shell(Path work, String command) {
            ProcessBuilder pb = new ProcessBuilder("bash", "-o", "pipefail", "-c", command)
                    .directory(work.toFile()).redirectErrorStream(true);
            Map<String, String> env = pb.environment();
            env.put("PATH", bin + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
            env.put("HOME", home.toString());
            env.put("XDG_DATA_HOME", home.resolve(".local/share").toString());
            env.put("SANDBOX", dir.toString());
            // bundles are built once per version into the user's cache, as every other test that makes one does
            env.putIfAbsent("XDG_CACHE_HOME", Path.of(System.getProperty("user.home"), ".cache").toString());
            env.put("COLUMNS", "100");
            env.remove("RAILYARD_NVML");
            return pb;
        }

        Outcome run(Path work, String command, long timeoutSeconds) throws IOException, InterruptedException {
            Process p = shell(work, command).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("still running after " + timeoutSeconds + " s: " + command);
            }
            return new Outcome(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        }

        /**
         * A server example: started, read line by line until {@code ready} shows (the moment it serves), then sent
         * SIGTERM; what it printed and how it ended come back.
         */
        Outcome serve(Path work, String command, String ready, long timeoutSeconds) throws IOException, InterruptedException {
            Process p = shell(work, "exec " + command).start();
            p.getOutputStream().close();
            // a server that never says it serves is killed at the deadline, which ends the read below
            java.util.concurrent.CompletableFuture.delayedExecutor(timeoutSeconds, TimeUnit.SECONDS)
                    .execute(p::destroyForcibly);
            List<String> lines = new ArrayList<>();
            try (var reader = p.inputReader(StandardCharsets.UTF_8)) {
                String line;
                while ((line = reader.readLine()) != null) {
                    lines.add(line);
                    if (line.contains(ready)) break;
                }
                p.toHandle().destroy(); // SIGTERM; Process.destroy would also close the pipe read below
                if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new AssertionError("did not stop on SIGTERM: " + command);
                }
                while ((line = reader.readLine()) != null) lines.add(line);
            }
            return new Outcome(p.exitValue(), String.join("\n", lines));
        }
    }
}

package dev.railyard.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --procs N}: starts N copies of this JVM, each one rank with its own GPU, meeting at a loopback rendezvous.
 * The children inherit stdout/stderr; only rank 0 prints the table.
 */
final class LocalRankLauncher {

    private LocalRankLauncher() {
    }

    static int launch(int procs, List<String> originalArgs) throws IOException, InterruptedException {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> passThrough = withoutProcs(originalArgs);
        List<Process> children = new ArrayList<>();
        for (int r = 0; r < procs; r++) {
            // the ranks run with this JVM's own flags (GC, JIT, AOT cache), so --procs measures what -g measures
            List<String> argv = new ArrayList<>(List.of(java));
            argv.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
            argv.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    Main.class.getName()));
            argv.addAll(passThrough);
            argv.addAll(List.of("--rank", String.valueOf(r), "--nranks", String.valueOf(procs),
                    "--device", String.valueOf(r), "--rendezvous", "127.0.0.1:" + port));
            children.add(new ProcessBuilder(argv).inheritIO().start());
        }
        int worst = 0;
        for (Process p : children) worst = Math.max(worst, p.waitFor());
        return worst;
    }

    private static List<String> withoutProcs(List<String> args) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--procs")) {
                i++;
            } else if (!a.startsWith("--procs=")) {
                out.add(a);
            }
        }
        return out;
    }
}

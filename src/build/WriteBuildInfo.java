import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A build step (run by Maven in process-resources with the JDK's source launcher, not shipped): writes the git commit
 * the classes are built from to dev/railyard/cli/build-info.properties, so `railyard --version` names it and two
 * builds that print the same version can still be told apart. A source tree without git, or a git that does not
 * answer within 10 s, gives "unknown" rather than a failed build.
 *
 * <p>Arguments: the checkout, the classes directory.
 */
public final class WriteBuildInfo {

    public static void main(String[] args) throws IOException, InterruptedException {
        Path checkout = Path.of(args[0]);
        Path out = Path.of(args[1], "dev", "railyard", "cli", "build-info.properties");
        String commit = git(checkout, "rev-parse", "--short=12", "HEAD");
        String changes = commit.isEmpty() ? "" : git(checkout, "status", "--porcelain", "--untracked-files=no");
        String text = "commit=" + (commit.isEmpty() ? "unknown" : commit) + "\n"
                + "changed=" + !changes.isEmpty() + "\n";
        Files.createDirectories(out.getParent());
        if (Files.exists(out) && Files.readString(out).equals(text)) return; // leave the file's time alone
        Files.writeString(out, text);
    }

    private static String git(Path checkout, String... args) throws IOException, InterruptedException {
        List<String> argv = new java.util.ArrayList<>(List.of("git", "-C", checkout.toString()));
        argv.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException noGit) {
            return "";
        }
        byte[] bytes = p.getInputStream().readAllBytes();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "";
        }
        return p.exitValue() == 0 ? new String(bytes, StandardCharsets.UTF_8).strip() : "";
    }
}

package dev.railyard.cli;

import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** One line: the version, the git commit the build came from (with "+changes" for uncommitted edits), the JVM. */
final class VersionProvider implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[]{line()};
    }

    static String line() {
        String v = Main.class.getPackage().getImplementationVersion();
        return "railyard " + (v == null ? "dev" : v) + " (commit " + commit() + ", Java " + Runtime.version() + ")";
    }

    /** From build-info.properties, which the build writes (src/build/WriteBuildInfo.java). */
    static String commit() {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("build-info.properties")) {
            if (in == null) return "unknown";
            p.load(in);
        } catch (IOException e) {
            return "unknown";
        }
        String commit = p.getProperty("commit", "unknown");
        return "true".equals(p.getProperty("changed")) ? commit + "+changes" : commit;
    }
}

package dev.railyard.cli;

import picocli.CommandLine;

final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return new String[]{"railyard " + (v == null ? "dev" : v) + " (Java " + Runtime.version() + ")"};
    }
}

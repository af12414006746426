package dev.railyard.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code railyard version}: what {@code --version} prints, for those who type it as a command. */
@Command(name = "version",
        mixinStandardHelpOptions = true,
        description = "Print railyard's version, the git commit it was built from and the Java it runs on.",
        footer = {"", "Examples:", "  railyard version", "  railyard --version"})
public final class VersionCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().println(VersionProvider.line());
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}

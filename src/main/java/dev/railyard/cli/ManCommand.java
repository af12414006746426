package dev.railyard.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "man",
        mixinStandardHelpOptions = true,
        description = {
                "Print railyard's manual page (troff), built from the same text as --help.",
                "",
                "scripts/install-man.sh installs it where man finds it."},
        footer = {"", "Examples:",
                "  railyard man > /usr/local/share/man/man1/railyard.1",
                "  railyard man | man -l -"})
public final class ManCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().print(ManPage.render(Main.commandLine()));
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}

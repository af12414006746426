package dev.railyard.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "completion",
        mixinStandardHelpOptions = true,
        description = {
                "Print the bash (and zsh) completion script for railyard.",
                "",
                "Completes commands, subcommands, options and option values (formats, tests, collectives). "
                        + "zsh users load it after 'autoload -U bashcompinit && bashcompinit'."},
        footer = {"", "Examples:",
                "  railyard completion > /etc/bash_completion.d/railyard",
                "  source <(railyard completion)"})
public final class CompletionCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        // The whole tree: Main builds only the named subcommand for a run, and this one needs every command.
        spec.commandLine().getOut().print(AutoComplete.bash("railyard", Main.commandLine()));
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}

package dev.railyard.cli;

import dev.railyard.model.RailyardException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code railyard help [COMMAND...]}: the help of a command at any depth ({@code help bench nccl}); picocli's own
 * help command looks one level down only.
 */
@Command(name = "help",
        helpCommand = true,
        description = "Show the help of railyard or of a command: the same text as COMMAND --help.",
        footer = {"", "Examples:", "  railyard help check", "  railyard help bench nccl"})
public final class HelpCommand implements Callable<Integer> {

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The command, and its subcommand if it has them.")
    List<String> command = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine at = spec.root().commandLine();
        for (String word : command) {
            CommandLine next = at.getSubcommands().get(word);
            if (next == null) {
                throw new RailyardException.Usage("'" + word + "' is not a command of "
                        + at.getCommandSpec().qualifiedName(),
                        "its commands: " + String.join(", ", at.getSubcommands().keySet()));
            }
            at = next;
        }
        at.usage(spec.commandLine().getOut());
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}

package dev.railyard.cli;

import picocli.CommandLine;

/** The composition root: builds the command tree and is the only place that calls System.exit. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI and returns the exit code; tests call this with their own writers via {@link #commandLine()}. */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new RailyardCommand());
        cl.setExecutionExceptionHandler(new ExitCodes.ExceptionHandler());
        cl.setParameterExceptionHandler(new ExitCodes.ParameterHandler());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        return cl;
    }
}

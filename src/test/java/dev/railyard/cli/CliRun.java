package dev.railyard.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One run of the CLI in this JVM, as the tests drive it: the exit code and what it wrote to each stream. */
public record CliRun(int code, String out, String err) {

    /** {@code railyard ARGS} through the whole command tree. */
    public static CliRun of(String... args) {
        return on(Main.commandLine(), args);
    }

    /** {@code ARGS} through a command line the test built (its own commands or fakes). */
    public static CliRun on(CommandLine cl, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return new CliRun(cl.execute(args), out.toString(), err.toString());
    }
}

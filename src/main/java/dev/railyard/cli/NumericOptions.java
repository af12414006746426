package dev.railyard.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

import java.util.Collection;

/**
 * The floor every numeric option shares, checked once the command line is parsed and before any command runs: a
 * number is finite (picocli reads "NaN" and "Infinity" as doubles) and never negative (no count, size, rate, port,
 * index or limit of Railyard's has a meaning below zero). Each command still checks its own upper bounds and where
 * zero has no meaning, with the hint that fits it.
 */
final class NumericOptions {

    private NumericOptions() {
    }

    /** An execution strategy that checks the numbers of every command on the line, then runs the last one. */
    static CommandLine.IExecutionStrategy checkedThen(CommandLine.IExecutionStrategy next) {
        return parseResult -> {
            for (ParseResult r = parseResult; r != null; r = r.subcommand()) check(r);
            return next.execute(parseResult);
        };
    }

    static void check(ParseResult result) {
        for (OptionSpec option : result.matchedOptions()) {
            Object value = option.getValue();
            if (value instanceof Collection<?> values) {
                for (Object v : values) checkOne(result.commandSpec().commandLine(), option, v);
            } else {
                checkOne(result.commandSpec().commandLine(), option, value);
            }
        }
    }

    private static void checkOne(CommandLine cl, OptionSpec option, Object value) {
        if (!(value instanceof Number n)) return;
        if ((n instanceof Double || n instanceof Float) && !Double.isFinite(n.doubleValue())) {
            throw new CommandLine.ParameterException(cl, option.longestName() + " must be a finite number, got " + n);
        }
        if (n.doubleValue() < 0) {
            throw new CommandLine.ParameterException(cl, option.longestName() + " cannot be negative, got " + n);
        }
    }
}

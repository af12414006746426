package dev.railyard.model;

/**
 * A failure the user can act on, with the exit code it maps to. Main prints the message (and the hint) in one
 * line; the stack trace only with --debug.
 */
public sealed class RailyardException extends RuntimeException
        permits RailyardException.Usage, RailyardException.MissingPrerequisite {

    private final int exitCode;
    private final String hint;

    private RailyardException(int exitCode, String message, String hint, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
        this.hint = hint;
    }

    public int exitCode() {
        return exitCode;
    }

    public String hint() {
        return hint;
    }

    /** Bad flags, a malformed spec, an unreadable input file: exit 2. */
    public static final class Usage extends RailyardException {
        public Usage(String message, String hint) {
            super(2, message, hint, null);
        }

        public Usage(String message, String hint, Throwable cause) {
            super(2, message, hint, cause);
        }
    }

    /** A tool, library or device the command needs is not there: exit 3. */
    public static final class MissingPrerequisite extends RailyardException {
        public MissingPrerequisite(String message, String hint) {
            super(3, message, hint, null);
        }

        public MissingPrerequisite(String message, String hint, Throwable cause) {
            super(3, message, hint, cause);
        }
    }
}

package dev.railyard.store;

/**
 * The history database refused a write or read (disk full, a file locked past the busy timeout, a corrupt file):
 * the message says which and the database's own reason.
 */
public final class HistoryException extends RuntimeException {
    public HistoryException(String what, Throwable cause) {
        super(what + ": " + cause.getMessage(), cause);
    }
}

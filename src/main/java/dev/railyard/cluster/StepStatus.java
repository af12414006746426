package dev.railyard.cluster;

/** How a remote step ended. Only EXITED carries an exit code the command itself chose. */
public enum StepStatus {
    /** The command ran and exited (any code: 1 is "a FAIL finding", not a launcher failure). */
    EXITED,
    /** The node could not be reached (ssh connect/auth failure, srun could not place the step). */
    UNREACHABLE,
    /** Killed at its timeout, with its remote process tree. */
    TIMED_OUT,
    /** Stopped because the run was interrupted (Ctrl-C). */
    INTERRUPTED,
    /** The launcher itself failed to start the step (no ssh binary, no railyard on the node). */
    LAUNCH_FAILED
}

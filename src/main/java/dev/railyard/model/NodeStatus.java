package dev.railyard.model;

/**
 * How far validate got on one node. Anything but COMPLETED leaves that node's checks UNKNOWN, never PASS. LOST: the
 * node was reached and then its transport failed mid-run; what it measured before is kept, its later tests are not run.
 */
public enum NodeStatus {
    COMPLETED, UNREACHABLE, TIMED_OUT, FAILED, NOT_RUN, LOST
}

package dev.railyard.model;

/** How far validate got on one node. Anything but COMPLETED leaves that node's checks UNKNOWN, never PASS. */
public enum NodeStatus {
    COMPLETED, UNREACHABLE, TIMED_OUT, FAILED, NOT_RUN
}

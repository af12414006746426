package dev.railyard.model;

/** One job of a fio run (with --group_reporting, the whole group). rw is fio's pattern: read, write, randrw... */
public record FioJob(String name, String rw, FioDirection read, FioDirection write) {}

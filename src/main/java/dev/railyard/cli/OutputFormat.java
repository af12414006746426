package dev.railyard.cli;

/** --format values shared by the commands that print results. */
public enum OutputFormat { TEXT, JSON, JUNIT }

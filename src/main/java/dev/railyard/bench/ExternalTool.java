package dev.railyard.bench;

import dev.railyard.model.RailyardException;
import dev.railyard.platform.CommandRunner;

/** An external benchmark program and the packages that install it, so a missing one gets a one-line fix. */
public record ExternalTool(String binary, String debianPackage, String rhelPackage) {

    public static final ExternalTool FIO = new ExternalTool("fio", "fio", "fio");

    public RailyardException.MissingPrerequisite missing(String why) {
        return new RailyardException.MissingPrerequisite(
                binary + " is not installed or not on PATH (" + why + ")",
                "install it: Debian/Ubuntu 'sudo apt-get install -y " + debianPackage
                        + "', RHEL/Rocky 'sudo dnf install -y " + rhelPackage + "'");
    }

    /** Throws MissingPrerequisite when the program could not be started at all. */
    public CommandRunner.Result requireStarted(CommandRunner.Result result) {
        if (result.notFound()) throw missing(result.startError());
        return result;
    }
}

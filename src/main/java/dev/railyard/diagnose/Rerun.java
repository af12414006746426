package dev.railyard.diagnose;

import dev.railyard.check.Fix;

/**
 * The fix for a paste that holds too little to judge: run the tool again, keep everything it prints in a file, and
 * diagnose that file. A paste rarely holds the command that made it, so that step is a comment naming the file.
 */
final class Rerun {

    private Rerun() {
    }

    /** {@code why} says what was missing; {@code file} is where to keep the new output ("iperf3.txt"). */
    static String andDiagnose(String why, String file) {
        return Fix.lines(Fix.note(why + ": run it again, keep all it prints (2>&1) in " + file + ", then:"),
                "railyard diagnose " + file);
    }

    /** The same, when the paste says enough to give the command itself. */
    static String andDiagnose(String why, String command, String file) {
        return Fix.lines(Fix.note(why + ":"), command + " 2>&1 | tee " + file, "railyard diagnose " + file);
    }
}

package dev.railyard.apply;

import java.nio.file.Path;

/** A second process for ApplyLockTest: takes the apply lock of a root, says so, and holds it until stdin closes. */
public final class ApplyLockHolder {

    private ApplyLockHolder() {
    }

    public static void main(String[] args) throws Exception {
        try (ApplyLock lock = ApplyLock.acquire(Path.of(args[0]))) {
            System.out.println("held");
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait for the test to close our stdin
            }
        }
    }
}

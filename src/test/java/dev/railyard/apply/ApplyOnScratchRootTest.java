package dev.railyard.apply;

import dev.railyard.cli.CliRun;
import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * railyard apply on a scratch root: diff, apply with backups, undo, a read-only file and a full disk (a 40 KiB
 * tmpfs mounted by the test when it runs as root). In every failure the root must hold exactly what it held before.
 */
class ApplyOnScratchRootTest {

    private static final String S4 = "examples/s4-h100-hdr.yaml";
    private static final String OLD_HOSTS = "127.0.0.1 localhost\n10.0.1.11 compute01\n";

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    private static CliRun apply(Path root, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("apply", "--spec", S4, "--node", "compute01", "--root", root.toString()));
        args.addAll(List.of(more));
        return run(args.toArray(String[]::new));
    }

    private static Path withOldHosts(Path root) throws IOException {
        Files.createDirectories(root.resolve("etc"));
        Files.writeString(root.resolve("etc/hosts"), OLD_HOSTS);
        return root;
    }

    @Test
    void dryRunPrintsTheDiffAndWritesNothing(@TempDir Path root) throws IOException {
        withOldHosts(root);
        Map<String, String> before = TreeSnapshot.of(root);
        CliRun r = apply(root);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("--- /etc/hosts\n+++ /etc/hosts\n").contains("-10.0.1.11 compute01\n")
                .contains("+10.0.1.18\tcompute08\n").contains("--- /dev/null\n+++ /etc/nccl.conf\n")
                .contains("file(s) would change under " + root + "; run with --apply");
        assertThat(TreeSnapshot.of(root)).isEqualTo(before);
    }

    @Test
    void applyWritesBacksUpAndUndoRestores(@TempDir Path root) throws IOException {
        withOldHosts(root);
        Map<String, String> before = TreeSnapshot.of(root);
        CliRun r = apply(root, "--apply");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("next on the node (netplan changed): netplan apply")
                .contains("next on the node (systemd units changed): systemctl daemon-reload")
                .doesNotContain("nvidia-smi");
        assertThat(Files.readString(root.resolve("etc/hosts"))).contains("10.0.2.18\tcompute08-ib-hdr");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("etc/netplan/60-railyard-fabric.yaml"))))
                .isEqualTo("rw-------");
        Backups.Backup backup = new Backups(new TargetRoot(root)).latest().orElseThrow();
        assertThat(Files.readString(backup.dir().resolve("etc/hosts"))).isEqualTo(OLD_HOSTS);
        assertThat(backup.entries()).contains(new Backups.Entry(true, 0644, "etc/hosts"), new Backups.Entry(false, 0, "etc/nccl.conf"));
        try (Stream<Path> all = Files.walk(root)) {
            assertThat(all.map(Path::toString)).noneMatch(p -> p.endsWith(Installer.TMP_SUFFIX));
        }

        CliRun again = apply(root);
        assertThat(again.out()).startsWith("0 of ");

        CliRun undo = run("apply", "--undo", "--root", root.toString());
        assertThat(undo.code()).as(undo.err()).isZero();
        assertThat(undo.out()).contains("restored 1 file(s)");
        Map<String, String> after = TreeSnapshot.of(root);
        after.keySet().removeIf(p -> p.startsWith(Backups.DIR));
        assertThat(after).isEqualTo(before);
        assertThat(run("apply", "--undo", "--root", root.toString()).code()).isEqualTo(2);
    }

    private static java.util.Set<String> dirs(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(Files::isDirectory).map(p -> root.relativize(p).toString()).filter(p -> !p.startsWith("var"))
                    .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
        }
    }

    @Test
    void applyingTwiceChangesNothingTheSecondTimeAndUndoStillGivesBackTheOriginal(@TempDir Path root) throws IOException {
        withOldHosts(root);
        Map<String, String> before = TreeSnapshot.of(root);
        java.util.Set<String> dirsBefore = dirs(root);
        assertThat(apply(root, "--apply").code()).isZero();
        Map<String, String> applied = TreeSnapshot.of(root);
        CliRun second = apply(root, "--apply");
        assertThat(second.code()).as(second.err()).isZero();
        assertThat(second.out()).contains("nothing to change: all 16 file(s) under " + root + " are already as rendered");
        assertThat(TreeSnapshot.of(root)).as("the second apply writes nothing, not even a backup").isEqualTo(applied);

        CliRun undo = run("apply", "--undo", "--root", root.toString());
        assertThat(undo.code()).as(undo.err()).isZero();
        Map<String, String> after = TreeSnapshot.of(root);
        after.keySet().removeIf(p -> p.startsWith(Backups.DIR));
        assertThat(after).isEqualTo(before);
        assertThat(dirs(root)).as("the directories apply made are gone").isEqualTo(dirsBefore);

        CliRun nothing = run("apply", "--undo", "--root", root.toString());
        assertThat(nothing.code()).isEqualTo(2);
        assertThat(nothing.err()).contains("nothing to undo under " + root + ": the newest apply (")
                .contains(") was undone already");
    }

    @Test
    void undoWithNoBackupSaysThereIsNothingToUndo(@TempDir Path root) throws IOException {
        withOldHosts(root);
        CliRun nothing = run("apply", "--undo", "--root", root.toString());
        assertThat(nothing.code()).isEqualTo(2);
        assertThat(nothing.err()).contains("nothing to undo under " + root + ": no apply has made a backup");
    }

    @Test
    void undoDoesNotOverwriteAFileChangedByHandUnlessForcedAndKeepsTheEdit(@TempDir Path root) throws IOException {
        withOldHosts(root);
        Map<String, String> before = TreeSnapshot.of(root);
        assertThat(apply(root, "--apply").code()).isZero();
        Path hosts = root.resolve("etc/hosts");
        String edited = Files.readString(hosts) + "10.9.9.9 added-by-hand\n";
        Files.writeString(hosts, edited);
        Files.writeString(root.resolve("etc/nccl.conf"), "NCCL_DEBUG=INFO\n", java.nio.file.StandardOpenOption.APPEND);
        Map<String, String> editedTree = TreeSnapshot.of(root);

        CliRun refused = run("apply", "--undo", "--root", root.toString());
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err()).contains("/etc/hosts, /etc/nccl.conf were changed since that apply")
                .contains("nothing was restored").contains("diff ").contains("apply --undo --root " + root + " --force");
        assertThat(TreeSnapshot.of(root)).as("nothing touched").isEqualTo(editedTree);

        CliRun forced = run("apply", "--undo", "--root", root.toString(), "--force");
        assertThat(forced.code()).as(forced.err()).isZero();
        Map<String, String> after = TreeSnapshot.of(root);
        after.keySet().removeIf(p -> p.startsWith(Backups.DIR));
        assertThat(after).isEqualTo(before);
        try (Stream<Path> kept = Files.walk(root.resolve(Backups.DIR))) {
            Path keptHosts = kept.filter(p -> p.endsWith(Path.of(Backups.HAND_EDITED, "etc/hosts"))).findFirst().orElseThrow();
            assertThat(Files.readString(keptHosts)).isEqualTo(edited);
        }
    }

    @Test
    void aReadOnlyFileStopsTheWholeApplyBeforeAnythingIsWritten(@TempDir Path root) throws IOException {
        withOldHosts(root);
        Files.setPosixFilePermissions(root.resolve("etc/hosts"), PosixFilePermissions.fromString("r--r--r--"));
        Map<String, String> before = TreeSnapshot.of(root);
        CliRun r = apply(root, "--apply");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("/etc/hosts is read-only (mode 0444): nothing was changed").contains("chmod u+w");
        assertThat(TreeSnapshot.of(root)).isEqualTo(before);
        assertThat(root.resolve("var")).doesNotExist();
        assertThat(root.resolve("etc/netplan")).doesNotExist();
    }

    @Test
    void aFullDiskLeavesTheRootAsItWas(@TempDir Path dir) throws IOException {
        CommandRunner runner = CommandRunner.system();
        CommandRunner.Result id = runner.run(List.of("id", "-u"), Duration.ofSeconds(10));
        boolean root = id.ok() && id.stdout().trim().equals("0");
        if (!root) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) fail("CI=true but not root: the disk-full case needs a tmpfs mount");
            assumeTrue(false, "not root: cannot mount the small tmpfs the disk-full case needs");
        }
        Path mnt = Files.createDirectories(dir.resolve("tiny"));
        CommandRunner.Result mount = runner.run(List.of("mount", "-t", "tmpfs", "-o", "size=40k,mode=0755", "tmpfs", mnt.toString()),
                Duration.ofSeconds(30));
        if (!mount.ok()) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) fail("CI=true but mount failed: " + mount.stderr());
            assumeTrue(false, "cannot mount a tmpfs here: " + mount.stderr());
        }
        try {
            withOldHosts(mnt);
            Map<String, String> before = TreeSnapshot.of(mnt);
            CliRun r = apply(mnt, "--apply");
            assertThat(r.code()).as(r.out() + r.err()).isEqualTo(3);
            assertThat(r.err()).contains("no space left under " + mnt).contains("nothing was changed");
            assertThat(TreeSnapshot.of(mnt)).isEqualTo(before);
            try (Stream<Path> all = Files.walk(mnt)) {
                assertThat(all.filter(Files::isDirectory).map(p -> mnt.relativize(p).toString())).containsExactlyInAnyOrder("", "etc");
            }
        } finally {
            runner.run(List.of("umount", mnt.toString()), Duration.ofSeconds(30));
        }
    }

    @Test
    void networkStepsAreMarkedAndNothingTouchesGpus() {
        List<Change> changes = new TargetRoot(Path.of("/nonexistent-railyard-root")).changes(
                dev.railyard.render.NodeRenderer.all().render(new dev.railyard.spec.SpecReader().read(Path.of(S4)), "compute01",
                        java.util.Optional.empty(), 9410));
        List<FollowUps.Step> steps = FollowUps.of(changes);
        assertThat(steps).filteredOn(FollowUps.Step::network).extracting(FollowUps.Step::argv)
                .containsExactly(List.of("netplan", "apply"));
        assertThat(steps).extracting(s -> s.argv().getFirst()).doesNotContain("nvidia-smi").contains("systemctl", "sysctl");
    }
}

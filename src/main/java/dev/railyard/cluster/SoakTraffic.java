package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.PairResult;
import dev.railyard.platform.Clock;

import java.util.List;

/**
 * The stages a validate run lends its soak: pair stages whose results stay out of the report's pair matrix and
 * history, the NCCL benchmark, and single steps, all through the run's launcher and its fan-out slots.
 */
record SoakTraffic(ClusterSpec spec, Launcher launcher, ValidateSettings settings, StepSlots slots, Progress progress,
                   LostNodes lost, Clock clock, String runId, List<String> commandLine) implements SoakStage.Stages {

    @Override
    public PairRunner pairRunner(int rounds) {
        return new PairRunner(launcher, spec, settings, clock, rounds);
    }

    @Override
    public PairStage pairStage(PairRunner runner, List<PairResult> results) {
        return new PairStage(spec, settings, runner, slots, RunRecorder.none(), runId, Progress.none(), results, lost, clock);
    }

    @Override
    public BenchStage bench() {
        return new BenchStage(launcher, spec, settings, slots, Progress.none(), commandLine);
    }

    @Override
    public StepResult step(String node, List<String> args) throws InterruptedException {
        try (StepSlots.Held h = slots.acquire(1)) {
            return launcher.run(spec.node(node).orElseThrow(), args, settings.stepTimeout());
        }
    }
}

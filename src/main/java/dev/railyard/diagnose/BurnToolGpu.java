package dev.railyard.diagnose;

import dev.railyard.model.BurnResult.Precision;

import java.util.List;
import java.util.Optional;

/**
 * One GPU as another burn tool's output (gpu-burn, gpu-fryer) states it: facts only, judged by {@link
 * BurnToolVerdicts}.
 *
 * @param index       the tool's GPU number (CUDA's order)
 * @param target      the GPU as {@code nvidia-smi -i} takes it: its UUID when the output names it, else the index
 * @param gflops      the tool's sustained Gflop/s (absent when it never measured one above zero)
 * @param worked      whether the tool counted any finished multiply on it
 * @param loadFailure why its load died or never started, when the output says so
 * @param errors      result elements that differed from the GPU's own reference (gpu-burn's "errors"); empty when
 *                    the tool does not compare results
 * @param verdict     the tool's own word on the GPU ("OK", "FAULTY"), when it printed one
 * @param throttles   the clock-event reasons the tool saw, by NVML's names; empty when the tool does not read them
 */
record BurnToolGpu(int index, String target, Optional<String> name, Precision precision, Optional<Double> gflops,
                   boolean worked, Optional<String> loadFailure, Optional<Long> errors, Optional<String> verdict,
                   Optional<List<String>> throttles, int line) {

    String subject() {
        return "GPU" + index + " (" + target + ")";
    }
}

package dev.railyard.nativelib;

/**
 * Every FfmNvmlTest again with each NVML function bound with its own descriptor: the path other architectures
 * take, and the reference the one-shape calls must agree with.
 */
class FfmNvmlExactDescriptorsTest extends FfmNvmlTest {

    @Override
    boolean exactDescriptors() {
        return true;
    }
}

package dev.railyard.bench.ibtools;

import dev.railyard.diagnose.RealSample;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The hardware error reports KernelLogParser finds, on real pastes from the diagnose corpus. */
class KernelEventTest {

    private static KernelLog parse(String resource) {
        return new KernelLogParser().parse(RealSample.text("diagnose/corpus/" + resource));
    }

    @Test
    void pcieLinkNarrowerThanTheDevice() {
        KernelLog log = parse("dev/kernel-pcie-limited-x1-openwrt-syslog.txt");
        assertThat(log.events()).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(KernelEvent.Kind.PCIE_LIMITED);
            assertThat(e.device()).isEqualTo("0003:01:00.0");
            assertThat(e.value()).hasValue(7.876);
            assertThat(e.detail()).isEqualTo("8.0 GT/s PCIe x1 link at 0003:00:00.0, capable of 15.752 Gb/s with "
                    + "8.0 GT/s PCIe x2");
            assertThat(e.lineNumber()).isEqualTo(1);
        });
    }

    @Test
    void pcieLinkAtFullWidthIsNotAFault() {
        KernelLog log = parse("dev/kernel-mlx5-healthy-x8-armnas16.txt");
        assertThat(log.events()).extracting(KernelEvent::kind).containsOnly(KernelEvent.Kind.PCIE_FULL);
        assertThat(log.lines()).isEqualTo(11);
    }

    @Test
    void probeFailureEdacAerAndRmInit() {
        assertThat(parse("dev/kernel-mlx5-probe-failed-rpext129.txt").events()).singleElement()
                .satisfies(e -> {
                    assertThat(e.kind()).isEqualTo(KernelEvent.Kind.PROBE_FAILED);
                    assertThat(e.detail()).isEqualTo("mlx5_core error -22");
                });
        assertThat(parse("dev/kernel-edac-ce-syslog-osm300.txt").events()).extracting(KernelEvent::kind)
                .containsExactly(KernelEvent.Kind.MACHINE_CHECK, KernelEvent.Kind.MEMORY_CORRECTED,
                        KernelEvent.Kind.MEMORY_CORRECTED, KernelEvent.Kind.MEMORY_CORRECTED,
                        KernelEvent.Kind.MEMORY_CORRECTED);
        assertThat(parse("dev/kernel-aer-corrected-physical-jmb582.txt").events()).extracting(KernelEvent::kind)
                .containsOnly(KernelEvent.Kind.PCIE_CORRECTED);
        assertThat(parse("dev/kernel-rminitadapter-cmpunlocker4.txt").events()).extracting(KernelEvent::kind)
                .containsExactly(KernelEvent.Kind.GPU_INIT_FAILED, KernelEvent.Kind.GPU_INIT_FAILED);
    }

    @Test
    void uncorrectedErrorsAreTheirOwnKind() {
        KernelLog log = new KernelLogParser().parse("""
                [ 12.3] pcieport 0000:00:01.0: AER: Uncorrected (Non-Fatal) error received: 0000:01:00.0
                [ 12.4] EDAC MC0: 1 UE memory read error on CPU_SrcID#0_MC#0_Chan#0_DIMM#0 (channel:0 slot:0)
                [ 12.5] {1}[Hardware Error]: event severity: fatal
                """);
        assertThat(log.events()).extracting(KernelEvent::kind).containsExactly(KernelEvent.Kind.PCIE_UNCORRECTED,
                KernelEvent.Kind.MEMORY_UNCORRECTED, KernelEvent.Kind.HARDWARE_ERROR_FATAL);
    }
}

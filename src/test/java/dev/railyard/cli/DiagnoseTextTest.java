package dev.railyard.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How the "Parsed:" block prints numbers: a small one keeps its digits (iperf3 issue 1158: 1.10 Mbit/s in Gb/s). */
class DiagnoseTextTest {

    @Test
    void aNumberUnderOneKeepsThreeSignificantDigits() {
        assertThat(DiagnoseText.number(0.0011)).isEqualTo("0.0011");
        assertThat(DiagnoseText.number(0.042185)).isEqualTo("0.0422");
        assertThat(DiagnoseText.number(0.17)).isEqualTo("0.17");
        assertThat(DiagnoseText.number(0.5)).isEqualTo("0.5");
        assertThat(DiagnoseText.number(-0.0011)).isEqualTo("-0.0011");
    }

    @Test
    void largerNumbersPrintAsBefore() {
        assertThat(DiagnoseText.number(26625)).isEqualTo("26625");
        assertThat(DiagnoseText.number(36.84)).isEqualTo("36.84");
        assertThat(DiagnoseText.number(5.5123)).isEqualTo("5.51");
        assertThat(DiagnoseText.number(0)).isEqualTo("0");
        assertThat(DiagnoseText.number(Double.NaN)).isEqualTo("NaN");
    }
}

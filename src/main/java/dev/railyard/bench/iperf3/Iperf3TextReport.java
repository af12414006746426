package dev.railyard.bench.iperf3;

import java.util.OptionalDouble;

/**
 * What iperf3's text output says beyond the numbers of {@link Iperf3Result}: whether it had a summary (without one,
 * the result is the median interval, not the last one), UDP datagram loss, and intervals that moved no data.
 *
 * @param summary       a sender/receiver summary (after "- - -") was in the paste
 * @param serverSide    the paste is the server's output, whose "sender" row counts nothing in old iperf3 versions
 * @param lossPercent   UDP datagrams lost, in percent, from the summary (else summed over the intervals)
 * @param lossLine      the line the loss was read from (0 when none)
 * @param zeroIntervals intervals at 0 bits/sec, omitted ones excepted: a stall
 * @param firstZeroLine the first of them (0 when none)
 */
public record Iperf3TextReport(Iperf3Result result, boolean summary, boolean serverSide, OptionalDouble lossPercent,
                               long lostDatagrams, long totalDatagrams, int lossLine, int zeroIntervals,
                               int firstZeroLine) {}

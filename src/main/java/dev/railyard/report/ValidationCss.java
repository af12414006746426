package dev.railyard.report;

/** The report page's whole style sheet, inline so the page needs nothing from the network. */
final class ValidationCss {

    private ValidationCss() {
    }

    static final String CSS = """
            body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 0 20px 40px; color: #1d2329; }
            h1 { font-size: 24px; margin: 20px 0 8px; }
            h2 { font-size: 19px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; margin-top: 32px; }
            h3 { font-size: 15px; margin: 18px 0 6px; }
            h3 small { font-weight: normal; color: #57606a; }
            dl.meta { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; margin: 0; }
            dl.meta dt { color: #57606a; }
            dl.meta dd { margin: 0; }
            table { border-collapse: collapse; margin: 6px 0; width: 100%; }
            th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
            th { background: #f6f8fa; }
            code, pre { font: 12px/1.4 ui-monospace, monospace; }
            pre { background: #f6f8fa; padding: 8px; overflow-x: auto; white-space: pre-wrap; }
            td code { white-space: pre-wrap; }
            .badge { display: inline-block; padding: 0 7px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; background: #57606a; }
            .badge.sev-PASS { background: #1a7f37; }
            .badge.sev-INFO { background: #0969da; }
            .badge.sev-UNKNOWN { background: #6e7781; }
            .badge.sev-WARN { background: #bf8700; }
            .badge.sev-FAIL { background: #cf222e; }
            .badge.incomplete { background: #8250df; }
            .badge.big { font-size: 18px; padding: 2px 12px; border-radius: 14px; vertical-align: middle; }
            .verdict { border: 1px solid #d0d7de; border-left: 8px solid #57606a; border-radius: 4px; padding: 8px 14px; margin: 8px 0 14px; }
            .verdict.sev-PASS { border-left-color: #1a7f37; } .verdict.sev-INFO { border-left-color: #1a7f37; }
            .verdict.sev-WARN { border-left-color: #bf8700; background: #fffbeb; }
            .verdict.sev-FAIL { border-left-color: #cf222e; background: #fff5f5; }
            .verdict.sev-UNKNOWN { border-left-color: #6e7781; background: #f6f8fa; }
            .verdict-line { font-size: 17px; margin: 4px 0; }
            .reasons { margin: 4px 0; padding-left: 22px; }
            tr.not-measured td { color: #57606a; font-style: italic; }
            .bar { font-weight: 600; color: #1d2329; }
            table.evidence { width: auto; font-size: 13px; }
            .more { color: #57606a; font-size: 12px; margin: 2px 0; }
            .culprit { border: 2px solid #cf222e; border-left-width: 8px; background: #fff5f5; padding: 4px 12px; margin: 10px 0; border-radius: 4px; }
            .culprit.sev-WARN { border-color: #bf8700; background: #fffbeb; }
            .culprit h3 { margin: 8px 0 4px; }
            .fix { margin: 4px 0 0; color: #57606a; }
            tr.status-UNREACHABLE td, tr.status-TIMED_OUT td, tr.status-FAILED td, tr.status-NOT_RUN td { background: #fff5f5; }
            .maps { display: flex; flex-wrap: wrap; gap: 16px; }
            figure { margin: 0; }
            figcaption { color: #57606a; font-size: 12px; }
            svg text { font: 11px system-ui, sans-serif; fill: #1d2329; }
            svg .axis { fill: #57606a; }
            .cell rect { stroke: #fff; stroke-width: 1; }
            .cell.sev-PASS rect { fill: #a6e3b5; }
            .cell.sev-INFO rect { fill: #b6d4f5; }
            .cell.sev-UNKNOWN rect { fill: #c9cdd2; }
            .cell.sev-WARN rect { fill: #f5d67a; }
            .cell.sev-FAIL rect { fill: #f29a9f; }
            .cell.nonumber rect { fill: #c9cdd2; }
            .cell.untested rect { fill: #f6f8fa; stroke: #afb8c1; stroke-dasharray: 3 3; }
            .cell.culprit rect { stroke: #82071e; stroke-width: 4; }
            svg.rail-culprit { outline: 4px solid #82071e; }
            .curve .frame { fill: none; stroke: #d0d7de; }
            .curve .grid { stroke: #eaeef2; }
            .curve .line { fill: none; stroke: #0969da; stroke-width: 2; }
            .curve circle { fill: #0969da; }
            .legend .key { display: inline-block; width: 14px; height: 14px; vertical-align: middle; margin: 0 4px 0 12px; border-radius: 3px; }
            .key.sev-PASS { background: #a6e3b5; } .key.sev-INFO { background: #b6d4f5; } .key.sev-UNKNOWN { background: #c9cdd2; }
            .key.sev-WARN { background: #f5d67a; } .key.sev-FAIL { background: #f29a9f; }
            .key.nonumber { background: #c9cdd2; }
            .key.untested { background: #f6f8fa; border: 1px dashed #afb8c1; } .key.culprit { border: 3px solid #82071e; }
            .none { color: #57606a; }
            tr.finding.sev-FAIL td:first-child { border-left: 4px solid #cf222e; }
            tr.finding.sev-WARN td:first-child { border-left: 4px solid #bf8700; }
            @media print {
              body { max-width: none; padding: 0; font-size: 11px; }
              svg { max-width: 100%; height: auto; }
              .culprit, .verdict, figure, tr { break-inside: avoid; }
              h2 { break-after: avoid; }
            }
            footer { margin-top: 40px; color: #57606a; font-size: 12px; }
            """;
}

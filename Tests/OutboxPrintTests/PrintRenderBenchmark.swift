import Foundation
import OutboxModel
import Testing
@testable import OutboxPrint

/// The renderer half of `Benchmarks/print-render.sh`: renders OUTBOX_BENCH_TEXT to
/// OUTBOX_BENCH_OUT with the embedded defaults. Skipped unless the script sets them; never a
/// timed assertion.
@Suite struct PrintRenderBenchmark {
    static let environment = ProcessInfo.processInfo.environment

    @Test(.enabled(if: environment["OUTBOX_BENCH_TEXT"] != nil && environment["OUTBOX_BENCH_OUT"] != nil))
    func renderTextFile() throws {
        let text = try String(contentsOfFile: Self.environment["OUTBOX_BENCH_TEXT"]!, encoding: .utf8)
        let job = PrintJob(info: PrintInfo(jobName: "benchmark"), content: .renderer(PageRenderer(
            footerHeight: 20, footer: HeaderFooter(center: "{page} / {pages}"),
            insets: EdgeInsets(top: 36, left: 36, bottom: 36, right: 36),
            formatters: [PrintFormatter(kind: .text, text: text, font: "DejaVu Sans Mono 9", lineSpacing: 1.0)])))
        let pages = try PrintRenderer(job: job).render(files: LocalPrintFiles([:]), to: Self.environment["OUTBOX_BENCH_OUT"]!)
        #expect(pages > 0)
    }
}

import Foundation
import OutboxModel

/// Print jobs used across the tests, shaped like the seeds' examples.
enum SampleJobs {
    static func lines(_ count: Int, prefix: String = "Line") -> String {
        (1...count).map { "\(prefix) \($0) of the sample text, long enough to be a real line of prose." }.joined(separator: "\n")
    }

    /// The seeds' page renderer: author left and title right in the header (not on page 1),
    /// page numbers in the footer, an overlay, and a second formatter from page 2.
    static func seedsExample(body: String = lines(120)) -> PrintJob {
        let renderer = PageRenderer(
            headerHeight: 30, footerHeight: 30,
            header: HeaderFooter(left: "{author}", right: "{title}"),
            footer: HeaderFooter(center: "Page {page} of {pages}"),
            headerOnFirstPage: false, overlay: "DRAFT",
            insets: EdgeInsets(top: 72, left: 72, bottom: 72, right: 72),
            title: "Send It Out", author: "Outbox Tester",
            formatters: [
                PrintFormatter(kind: .text, startPage: 0, text: "Introduction\n" + lines(10, prefix: "Intro")),
                PrintFormatter(kind: .markup, startPage: 1, text: "<h1>Chapter</h1><p>Some <b>bold</b> text.</p><ul><li>one</li><li>two</li></ul><p>" + body + "</p>"),
            ])
        return PrintJob(info: PrintInfo(jobName: "Seeds example"), content: .renderer(renderer))
    }

    static func text(_ text: String, font: String? = nil, fontAttachment: Int? = nil, lineSpacing: Double? = nil,
                     insets: EdgeInsets = EdgeInsets(top: 72, left: 72, bottom: 72, right: 72),
                     info: PrintInfo = PrintInfo(jobName: "Text")) -> PrintJob {
        PrintJob(info: info, content: .renderer(PageRenderer(insets: insets, formatters: [
            PrintFormatter(kind: .text, text: text, font: font, fontAttachment: fontAttachment, lineSpacing: lineSpacing),
        ])))
    }
}

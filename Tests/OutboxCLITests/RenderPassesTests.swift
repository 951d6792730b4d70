import Foundation
import OutboxTestSupport
import Testing

/// A job whose header and footer need no page total is drawn in one pass; one that shows
/// `{pages}` is laid out first. Both must put the same text on the same pages.
@Suite("Render: one pass and two passes agree")
struct RenderPassesTests {
    @Test func onePassAndTwoPassesGiveTheSamePages() throws {
        let cli = CLI("render-passes")
        let text = cli.temporary.write("long.txt", (1...400).map { "Line \($0): the quick brown fox jumps over the lazy dog" }
            .joined(separator: "\n"))
        let one = cli.temporary.file("one.pdf"), two = cli.temporary.file("two.pdf")
        cli.ok("render", "--text-file", text, "--footer-center", "page {page}", "--overlay", "COPY", "--out", one)
        cli.ok("render", "--text-file", text, "--footer-center", "page {page} of {pages}", "--overlay", "COPY", "--out", two)
        func pages(_ pdf: String) throws -> [String] {
            let output = try SMTPFixtures.run("/usr/bin/pdftotext", ["-layout", pdf, "-"]).output
            // Centred footers of different widths move the columns: compare the words per page.
            return String(decoding: output, as: UTF8.self).split(separator: "\u{0C}").map { page in
                page.replacingOccurrences(of: #"page \d+( of \d+)?"#, with: "page N", options: .regularExpression)
                    .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            }
        }
        let onePass = try pages(one), twoPasses = try pages(two)
        #expect(onePass.count > 5)
        #expect(onePass == twoPasses)
    }
}

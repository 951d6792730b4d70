import OutboxModel
import Testing
@testable import OutboxPrint

/// How plain text is cut into the blocks Pango lays out.
@Suite struct CompositionTests {
    func blocks(_ text: String) throws -> [TextBlock] {
        try Composition(job: SampleJobs.text(text), defaults: PrintDefaults(), files: LocalPrintFiles([:])).blocks
    }

    @Test func crlfBecomesLfAndOneTrailingNewlineIsDropped() throws {
        let cut = try blocks("one\r\ntwo\rthree\r\n\r\n")
        #expect(cut.map(\.text) == ["one\ntwo\rthree\n"])
    }

    @Test func formFeedStartsASectionOnANewPage() throws {
        let cut = try blocks("a\u{0C}b\nc\u{0C}\u{0C}d")
        #expect(cut.map(\.text) == ["a", "b\nc", "", "d"])
        #expect(cut.map(\.pageBreakBefore) == [false, true, true, true])
    }

    @Test func longTextIsCutAtParagraphsAndKeepsEveryByte() throws {
        let lines = (1...(Composition.blockParagraphs * 3 + 5)).map { "línea \($0) 日本語" }
        let cut = try blocks(lines.joined(separator: "\n"))
        #expect(cut.count == 4)
        #expect(cut.map(\.text).joined(separator: "\n") == lines.joined(separator: "\n"))
        #expect(cut.dropLast().allSatisfy { $0.text.split(separator: "\n", omittingEmptySubsequences: false).count == Composition.blockParagraphs })
        let long = String(repeating: "x", count: Composition.blockBytes + 10)
        #expect(try blocks("a\n\(long)\nb").map(\.text) == ["a\n\(long)", "b"])
    }

    @Test func blocksKnowTheirLongestParagraphUnlessRightToLeft() throws {
        #expect(try blocks("ab\ncde\n日本語の").map(\.longestParagraph) == [4])
        #expect(try blocks("short\nשלום").map(\.longestParagraph) == [nil])
    }
}

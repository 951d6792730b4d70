import CPangoCairo
import OutboxModel
import Testing
@testable import OutboxPrint

/// A block laid out first without a width must end up as Pango lays it out at the width:
/// the same lines, metrics and glyphs, whether the unwrapped try is kept or given up.
@Suite struct LaidOutBlockTests {
    static let width = 300.0

    /// Every line's metrics and every run's text range and glyphs, as text to compare.
    func signature(_ laid: LaidOutBlock) -> [String] {
        laid.lines.map { metrics in
            var parts = ["\(metrics.x) \(metrics.height) \(metrics.baseline)"]
            var node = metrics.line.pointee.runs
            while let current = node {
                node = current.pointee.next
                guard let run = current.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
                      let item = run.pointee.item, let glyphs = run.pointee.glyphs else { continue }
                parts.append("run \(item.pointee.offset)+\(item.pointee.length) level \(item.pointee.analysis.level)")
                for index in 0..<Int(glyphs.pointee.num_glyphs) {
                    let info = glyphs.pointee.glyphs[index]
                    parts.append("\(info.glyph) \(info.geometry.width) \(info.geometry.x_offset) \(info.geometry.y_offset) \(glyphs.pointee.log_clusters[index])")
                }
            }
            return parts.joined(separator: " | ")
        }
    }

    func layouts(_ text: String, width: Double = LaidOutBlockTests.width) throws -> (wrapped: LaidOutBlock, unwrapped: LaidOutBlock) {
        let session = try RenderSession(path: nil, firstPage: PaperSize(width: 595, height: 842), fontFiles: [])
        defer { session.abandon() }
        let font = FontDescription(string: "DejaVu Serif 11")
        let block = TextBlock(text: text, isMarkup: false, font: 0, alignment: .left, lineSpacing: 1, color: nil)
        return (try LaidOutBlock(block, width: width, font: font, context: session.context),
                try LaidOutBlock(block, width: width, font: font, context: session.context, unwrapped: true))
    }

    @Test(arguments: [
        ("short lines\nof plain text\n\nwith an empty one", true),
        ("tabs\tin\tthe\tline\nand 12345 digits", true),
        ("office affluent fjord, e\u{301}te\u{301} marks", true),
        ("日本語のテキスト\nfalls back to another font", true),
        ("שלום עולם first\n123 neutral after right to left\nleft to right again", false),
        ("a line far too long to fit in three hundred points, so it wraps at the width like any prose paragraph would", false),
    ])
    func unwrappedMatchesWrapped(text: String, fits: Bool) throws {
        let (wrapped, unwrapped) = try layouts(text)
        #expect(unwrapped.isUnwrapped == fits)
        #expect(signature(unwrapped) == signature(wrapped))
    }

    /// Letters that fit and trailing spaces that do not: Pango wraps (and drops the spaces'
    /// width), so the unwrapped try must be given up.
    @Test func trailingSpacesPastTheWidthWrap() throws {
        let letters = String(repeating: "w", count: 20), spaces = String(repeating: " ", count: 8)
        let bare = try layouts(letters, width: 1000).unwrapped, padded = try layouts(letters + spaces, width: 1000).unwrapped
        func firstLineWidth(_ laid: LaidOutBlock) -> Double {
            var logical = PangoRectangle()
            pango_layout_line_get_extents(laid.lines[0].line, nil, &logical)
            return Double(logical.width) / Double(PANGO_SCALE)
        }
        let width = (firstLineWidth(bare) + firstLineWidth(padded)) / 2
        #expect(firstLineWidth(bare) < width && width < firstLineWidth(padded))
        let (wrapped, unwrapped) = try layouts(letters + spaces, width: width)
        #expect(!unwrapped.isUnwrapped)
        #expect(signature(unwrapped) == signature(wrapped))
    }
}

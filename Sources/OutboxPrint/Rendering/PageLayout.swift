/// The result of the layout pass: every page of the document with what goes on it, known
/// before the first page is written (so `{pages}` and page ranges are exact).
struct PageLayout {
    struct Rect: Equatable {
        var x: Double, y: Double, width: Double, height: Double
        var maxX: Double { x + width }
        var maxY: Double { y + height }
    }

    enum Placement {
        /// Lines `firstLine..<firstLine+lineCount` of text block `block` laid out `width` wide,
        /// the first line's top at `y`.
        case text(block: Int, firstLine: Int, lineCount: Int, x: Double, y: Double, width: Double)
        case image(index: Int, rect: Rect)
        /// A page of a PDF; `rect` nil: drawn at its own size on a page of its own size.
        case pdf(document: Int, page: Int, rect: Rect?)
    }

    struct Page {
        var size: PaperSize
        /// Page-renderer pages get header, footer and overlay; items printed as they are do not.
        var decorated: Bool
        var placements: [Placement] = []
    }

    var pages: [Page] = []
}

import CPangoCairo
import OutboxModel

/// A run of text laid out as one `PangoLayout`: up to a few dozen paragraphs of plain text, or
/// one block element of markup. Only the string is kept between passes, so a 500-page
/// document never holds more than one block's glyphs at a time.
struct TextBlock {
    var text: String
    var isMarkup: Bool
    /// Index into the renderer's font table.
    var font: Int
    var alignment: PrintFormatter.Alignment
    var lineSpacing: Double
    var color: RGBColor?
    /// Extra left indent (list items), in points.
    var indent: Double = 0
    /// Space above the block when it does not start a page, in points.
    var spaceBefore: Double = 0
    /// A form feed in plain text, or a new formatter section: start on a fresh page.
    var pageBreakBefore = false
    /// Characters in the longest paragraph of plain text without right-to-left letters, for
    /// guessing that every paragraph fits on one line; `nil` when not worth guessing.
    var longestParagraph: Int?
}


/// One laid-out line: its position inside the block and its height.
struct LineMetrics {
    let line: UnsafeMutablePointer<PangoLayoutLine>
    /// Left edge of the line's logical box (alignment already applied).
    let x: Double
    let height: Double
    /// From the top of the line box to its baseline.
    let baseline: Double
}

/// A block's `PangoLayout` with its line metrics; freed on deinit.
final class LaidOutBlock {
    /// `PangoLayout *`
    let layout: OpaquePointer
    private(set) var lines: [LineMetrics] = []
    /// Laid out without a width, every line fitting.
    private(set) var isUnwrapped = false

    /// With `unwrapped`, the text is first laid out without a width, which spares Pango a
    /// second shaping of each line; kept if every line fits the width left to right (what
    /// Pango would have made then), else laid out again at the width.
    init(_ block: TextBlock, width: Double, font: FontDescription, context: OpaquePointer, unwrapped: Bool = false) throws {
        guard let layout = pango_layout_new(context) else { throw PrintRenderError(.internal, "pango_layout_new failed") }
        self.layout = layout
        let wrapWidth = Int32(max(width - block.indent, 1) * Double(PANGO_SCALE))
        let tryUnwrapped = unwrapped && !block.isMarkup && block.alignment == .left
        pango_layout_set_font_description(layout, font.handle)
        pango_layout_set_width(layout, tryUnwrapped ? -1 : wrapWidth)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        switch block.alignment {
        case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        case .justified:
            pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
            pango_layout_set_justify(layout, 1)
        }
        if block.isMarkup {
            // Parsed here rather than with pango_layout_set_markup, which only logs errors.
            var attributes: OpaquePointer?
            var plain: UnsafeMutablePointer<CChar>?
            var error: UnsafeMutablePointer<GError>?
            guard pango_parse_markup(block.text, -1, 0, &attributes, &plain, nil, &error) != 0 else {
                let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
                g_error_free(error)
                throw PrintRenderError.bad("markup could not be laid out: \(reason)")
            }
            pango_layout_set_text(layout, plain, -1)
            pango_layout_set_attributes(layout, attributes)
            pango_attr_list_unref(attributes)
            g_free(plain)
        } else {
            pango_layout_set_text(layout, block.text, -1)
        }
        if tryUnwrapped {
            isUnwrapped = readLines(indent: block.indent, fitting: wrapWidth)
            if !isUnwrapped {
                lines.removeAll(keepingCapacity: true)
                pango_layout_set_width(layout, wrapWidth)
            }
        }
        if lines.isEmpty { _ = readLines(indent: block.indent, fitting: nil) }
        guard !lines.isEmpty else { throw PrintRenderError(.internal, "pango_layout_get_iter failed") }
    }

    /// Collects the line metrics; with `fitting`, stops and says false at the first line that
    /// is wider or not left to right.
    private func readLines(indent: Double, fitting width: Int32?) -> Bool {
        guard let iterator = pango_layout_get_iter(layout) else { return false }
        defer { pango_layout_iter_free(iterator) }
        let scale = Double(PANGO_SCALE)
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &logical)
            let baseline = pango_layout_iter_get_baseline(iterator)
            guard let line = pango_layout_iter_get_line_readonly(iterator) else { break }
            if let width, logical.x != 0 || logical.width > width || pango_layout_line_get_resolved_direction(line) != PANGO_DIRECTION_LTR {
                return false
            }
            lines.append(LineMetrics(line: line, x: Double(logical.x) / scale + indent,
                                     height: Double(logical.height) / scale,
                                     baseline: Double(baseline - logical.y) / scale))
        } while pango_layout_iter_next_line(iterator) != 0
        return true
    }

    deinit { outbox_g_object_unref(UnsafeMutableRawPointer(layout)) }
}

@available(*, unavailable) extension LaidOutBlock: Sendable {}

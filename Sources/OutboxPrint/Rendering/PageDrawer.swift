import CPangoCairo
import Foundation
import OutboxModel

/// The draw pass: writes the selected pages one by one (each `cairo_show_page` flushes the
/// page to the file, so memory stays flat), then decorations: header, footer, overlay.
///
/// Grayscale output is gray at the source: text in the gray of its colour, images with gray
/// pixels. Only PDF pages, whose colours poppler sets, get a blend, and only around themselves.
final class PageDrawer {
    private let composition: Composition
    private let session: RenderSession
    private let layout: PageLayout
    private let date: String
    private let headerFont: FontDescription
    /// The block whose layout was built last: consecutive pages mostly continue it.
    private var cached: (index: Int, block: LaidOutBlock)?
    /// Layouts the layout pass kept: used instead of laying the same text out again.
    private let laidOut: KeptBlocks<LaidOutBlock>?
    /// Plain-text blocks the layout pass captured, and the one being drawn.
    private let captured: KeptBlocks<CapturedBlock>?
    private var capturedBlock: (index: Int, block: CapturedBlock)?
    /// Scratch arrays for drawing captured lines.
    private var glyphBuffer: [cairo_glyph_t] = []
    private var clusterBuffer: [cairo_text_cluster_t] = []
    private var metadataSet = false

    init(_ composition: Composition, session: RenderSession, layout: PageLayout, laidOut: KeptBlocks<LaidOutBlock>? = nil,
         captured: KeptBlocks<CapturedBlock>? = nil, date: Date) {
        self.composition = composition
        self.session = session
        self.layout = layout
        self.laidOut = laidOut
        self.captured = captured
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        self.date = formatter.string(from: date)
        headerFont = composition.fonts[0].copy()
        pango_font_description_set_size(headerFont.handle, 9 * PANGO_SCALE)
    }

    func draw(_ selected: [Int]) throws {
        for index in selected { try draw(layout.pages[index], index: index) }
    }

    /// Writes one page. The one-pass path calls it as the layout pass finishes each page.
    func draw(_ page: PageLayout.Page, index: Int) throws {
        let cr = session.cr
        if !metadataSet {
            session.setMetadata(title: composition.renderer?.title ?? composition.job.info.jobName, author: composition.renderer?.author)
            metadataSet = true
        }
        cairo_pdf_surface_set_size(session.surface, page.size.width, page.size.height)
        for placement in page.placements { try draw(placement) }
        if page.decorated, let renderer = composition.renderer { drawDecorations(renderer, pageIndex: index, size: page.size) }
        cairo_show_page(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PrintRenderError(status == CAIRO_STATUS_WRITE_ERROR ? .io : .internal,
                                   "cairo failed on page \(index + 1): \(String(cString: cairo_status_to_string(status)))")
        }
    }

    // MARK: - Content

    private func draw(_ placement: PageLayout.Placement) throws {
        let cr = session.cr
        switch placement {
        case let .text(index, firstLine, lineCount, x, top, width):
            let block = composition.blocks[index]
            if capturedBlock?.index != index, let kept = captured?.take(index) { capturedBlock = (index, kept) }
            if let capturedBlock, capturedBlock.index == index {
                drawCaptured(capturedBlock.block, text: block.text, lines: firstLine..<firstLine + lineCount, x: x, top: top, block: block)
                return
            }
            let laid: LaidOutBlock
            if let cached, cached.index == index {
                laid = cached.block
            } else if let kept = laidOut?.take(index) {
                laid = kept
                cached = (index, kept)
            } else {
                laid = try LaidOutBlock(block, width: width, font: composition.fonts[block.font], context: session.context)
                cached = (index, laid)
            }
            let color = block.color.map { composition.grayscale ? $0.gray : $0 } ?? RGBColor(red: 0, green: 0, blue: 0)
            cairo_set_source_rgb(cr, color.red, color.green, color.blue)
            var y = top
            for number in firstLine..<min(firstLine + lineCount, laid.lines.count) {
                let line = laid.lines[number]
                cairo_move_to(cr, x + line.x, y + line.baseline)
                pango_cairo_show_layout_line(cr, line.line)
                y += line.height * block.lineSpacing
            }
        case let .image(index, rect):
            let image = composition.images[index]
            let surface = try image.makeSurface(gray: composition.grayscale)
            defer { cairo_surface_destroy(surface) }
            cairo_save(cr)
            cairo_translate(cr, rect.x, rect.y)
            cairo_scale(cr, rect.width / Double(image.width), rect.height / Double(image.height))
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_paint(cr)
            cairo_restore(cr)
        case let .pdf(index, page, rect):
            let document = composition.documents[index]
            cairo_save(cr)
            defer { cairo_restore(cr) }
            if let rect {
                let size = try document.size(ofPage: page)
                cairo_translate(cr, rect.x, rect.y)
                cairo_scale(cr, rect.width / size.width, rect.height / size.height)
                cairo_rectangle(cr, 0, 0, size.width, size.height)
                cairo_clip(cr)
            }
            if composition.grayscale {
                try drawGray(page: page, of: document)
            } else {
                try document.render(page: page, on: cr)
            }
        }
    }

    private func drawCaptured(_ captured: CapturedBlock, text: String, lines: Range<Int>, x: Double, top: Double, block: TextBlock) {
        let cr = session.cr
        let color = block.color.map { composition.grayscale ? $0.gray : $0 } ?? RGBColor(red: 0, green: 0, blue: 0)
        cairo_set_source_rgb(cr, color.red, color.green, color.blue)
        func draw(_ bytes: UnsafeBufferPointer<UInt8>) {
            var y = top
            for number in lines.clamped(to: 0..<captured.lines.count) {
                let line = captured.lines[number]
                cairo_move_to(cr, x + line.x, y + line.baseline)
                captured.draw(line: number, text: bytes, on: cr, buffer: &glyphBuffer, oneToOne: &clusterBuffer)
                y += line.height * block.lineSpacing
            }
        }
        if text.utf8.withContiguousStorageIfAvailable(draw) == nil { Array(text.utf8).withUnsafeBufferPointer(draw) }
    }

    // MARK: - Decorations

    private func drawDecorations(_ renderer: PageRenderer, pageIndex: Int, size: PaperSize) {
        let geometry = try? PageGeometry(size: size, renderer: renderer)
        guard let geometry else { return }
        if renderer.headerHeight > 0, pageIndex > 0 || renderer.headerOnFirstPage {
            drawBand(renderer.header, in: geometry.header, pageIndex: pageIndex, renderer: renderer)
        }
        if renderer.footerHeight > 0 {
            drawBand(renderer.footer, in: geometry.footer, pageIndex: pageIndex, renderer: renderer)
        }
        if let overlay = renderer.overlay, !overlay.isEmpty { drawOverlay(overlay, size: size) }
    }

    private func drawBand(_ band: HeaderFooter, in rect: PageLayout.Rect, pageIndex: Int, renderer: PageRenderer) {
        let cr = session.cr
        let parts: [(String?, PangoAlignment)] = [(band.left, PANGO_ALIGN_LEFT), (band.center, PANGO_ALIGN_CENTER), (band.right, PANGO_ALIGN_RIGHT)]
        cairo_set_source_rgb(cr, 0, 0, 0)
        for case let (text?, alignment) in parts where !text.isEmpty {
            let value = substitute(text, pageIndex: pageIndex, renderer: renderer)
            guard let layout = pango_layout_new(session.context) else { continue }
            defer { outbox_g_object_unref(UnsafeMutableRawPointer(layout)) }
            pango_layout_set_font_description(layout, headerFont.handle)
            pango_layout_set_width(layout, Int32(rect.width * Double(PANGO_SCALE)))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            pango_layout_set_alignment(layout, alignment)
            pango_layout_set_text(layout, value, -1)
            var logical = PangoRectangle()
            pango_layout_get_extents(layout, nil, &logical)
            let height = Double(logical.height) / Double(PANGO_SCALE)
            cairo_move_to(cr, rect.x, rect.y + (rect.height - height) / 2)
            pango_cairo_show_layout(cr, layout)
        }
    }

    func substitute(_ text: String, pageIndex: Int, renderer: PageRenderer) -> String {
        text.replacingOccurrences(of: "{page}", with: String(pageIndex + 1))
            .replacingOccurrences(of: "{pages}", with: String(layout.pages.count))
            .replacingOccurrences(of: "{title}", with: renderer.title ?? composition.job.info.jobName)
            .replacingOccurrences(of: "{author}", with: renderer.author ?? "")
            .replacingOccurrences(of: "{date}", with: date)
    }

    /// The watermark: bold, diagonal, centred, sized to most of the page diagonal, 25 % opaque.
    private func drawOverlay(_ text: String, size: PaperSize) {
        let cr = session.cr
        guard let layout = pango_layout_new(session.context) else { return }
        defer { outbox_g_object_unref(UnsafeMutableRawPointer(layout)) }
        let font = composition.fonts[0].copy()
        pango_font_description_set_weight(font.handle, PANGO_WEIGHT_BOLD)
        pango_font_description_set_size(font.handle, 72 * PANGO_SCALE)
        pango_layout_set_font_description(layout, font.handle)
        pango_layout_set_text(layout, text, -1)
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        let width = Double(logical.width) / Double(PANGO_SCALE), height = Double(logical.height) / Double(PANGO_SCALE)
        guard width > 0, height > 0 else { return }
        let diagonal = (size.width * size.width + size.height * size.height).squareRoot()
        let scale = min(diagonal * 0.6 / width, size.width * 0.5 / height)
        cairo_save(cr)
        cairo_translate(cr, size.width / 2, size.height / 2)
        cairo_rotate(cr, -atan2(size.height, size.width))
        cairo_scale(cr, scale, scale)
        cairo_move_to(cr, -width / 2, -height / 2)
        cairo_set_source_rgba(cr, 0.5, 0.5, 0.5, 0.25)
        pango_cairo_show_layout(cr, layout)
        cairo_restore(cr)
    }

    /// A PDF page for grayscale output: poppler draws it with its own colours, so it is drawn
    /// into a group that a saturation blend then takes the colour out of. The group stays
    /// vector (cairo writes a transparency group with a PDF blend mode, not a rasterised page);
    /// its backdrop is white paper, without which the blend would leave gray on the empty parts.
    private func drawGray(page: Int, of document: PopplerDocument) throws {
        let cr = session.cr
        let size = try document.size(ofPage: page)
        cairo_rectangle(cr, 0, 0, size.width, size.height)
        cairo_clip(cr)
        cairo_push_group(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        do {
            try document.render(page: page, on: cr)
        } catch {
            cairo_pattern_destroy(cairo_pop_group(cr))
            throw error
        }
        cairo_set_operator(cr, CAIRO_OPERATOR_HSL_SATURATION)
        cairo_set_source_rgb(cr, 0.5, 0.5, 0.5)
        cairo_paint(cr)
        cairo_pop_group_to_source(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        cairo_paint(cr)
    }
}

@available(*, unavailable) extension PageDrawer: Sendable {}

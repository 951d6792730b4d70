import CPangoCairo
import OutboxModel

/// The layout pass: places every block line, image and PDF page on pages without drawing, so
/// the page count is known before the first page is written.
///
/// Formatters flow one after another; a formatter whose start page lies ahead begins on that
/// page (blank pages in between if needed), one whose start page is already reached continues
/// below the previous content (UIKit would draw both on the same spot instead).
final class PageLayoutBuilder {
    private let composition: Composition
    private let context: OpaquePointer
    /// Where text layouts go for the draw pass to reuse; `nil` when nothing is drawn.
    private let cache: KeptBlocks<LaidOutBlock>?
    /// Where plain-text blocks go, captured, for the draw pass: instead of `cache`, as they
    /// cost a tenth of the memory.
    private let captured: KeptBlocks<CapturedBlock>?
    private var layout = PageLayout()
    private var geometry: PageGeometry
    private var decorated = false
    private var y = 0.0
    /// Something is on the current page: the next line that does not fit breaks the page.
    private var used = false
    /// One-pass rendering: called with each page as soon as nothing more can land on it; its
    /// placements are dropped afterwards, so memory stays flat.
    var onPageFinished: ((PageLayout.Page, Int) throws -> Void)?

    init(_ composition: Composition, session: RenderSession, cache: KeptBlocks<LaidOutBlock>? = nil, captured: KeptBlocks<CapturedBlock>? = nil) {
        self.composition = composition
        context = session.context
        self.cache = cache
        self.captured = captured
        geometry = PageGeometry(size: composition.paper, margin: 72)
    }

    func build() throws -> PageLayout {
        if let renderer = composition.renderer {
            geometry = try PageGeometry(size: composition.paper, renderer: renderer)
            decorated = true
            try newPage()
        }
        for step in composition.steps {
            switch step {
            case .formatter(let startPage, let content):
                while layout.pages.count - 1 < startPage { try newPage() }
                try place(content)
            case .item(let content):
                try placeItem(content)
            }
        }
        if layout.pages.isEmpty { try newPage() }
        try finishLastPage()
        return layout
    }

    private func newPage() throws {
        try finishLastPage()
        layout.pages.append(PageLayout.Page(size: geometry.size, decorated: decorated))
        y = geometry.body.y
        used = false
    }

    /// Index of the last page handed to `onPageFinished`.
    private var finished = -1

    private func finishLastPage() throws {
        guard let onPageFinished, let index = layout.pages.indices.last, index > finished else { return }
        try onPageFinished(layout.pages[index], index)
        layout.pages[index].placements = []
        finished = index
    }

    private func add(_ placement: PageLayout.Placement) {
        layout.pages[layout.pages.count - 1].placements.append(placement)
        used = true
    }

    // MARK: - Page-renderer content

    private func place(_ content: Composition.Content) throws {
        switch content {
        case .text(let range):
            for index in range { try placeText(index) }
        case .image(let index):
            let image = composition.images[index]
            let body = geometry.body
            var rect = PageGeometry.fit(width: Double(image.width), height: Double(image.height), in: body, centre: false)
            if used && y + rect.height > body.maxY + 0.01 { try newPage() }
            rect.y = y
            add(.image(index: index, rect: rect))
            y += rect.height
        case .pdf(let index):
            let document = composition.documents[index]
            for page in 0..<document.pageCount {
                if used { try newPage() }
                let size = try document.size(ofPage: page)
                let rect = PageGeometry.fit(width: size.width, height: size.height, in: geometry.body, centre: false)
                add(.pdf(document: index, page: page, rect: rect))
                y = geometry.body.maxY
            }
        }
    }

    private func placeText(_ index: Int) throws {
        let block = composition.blocks[index]
        let body = geometry.body
        if block.pageBreakBefore && used { try newPage() }
        if used { y += block.spaceBefore }
        let laid = try LaidOutBlock(block, width: body.width, font: composition.fonts[block.font], context: context,
                                    unwrapped: likelyFitsUnwrapped(block, width: body.width))
        keep(laid, index: index, block: block)
        var first = 0, count = 0, top = y
        for (number, line) in laid.lines.enumerated() {
            if used && y + line.height > body.maxY + 0.01 {
                if count > 0 { add(.text(block: index, firstLine: first, lineCount: count, x: body.x, y: top, width: body.width)) }
                try newPage()
                count = 0
            }
            if count == 0 {
                first = number
                top = y
            }
            count += 1
            used = true
            y += line.height * block.lineSpacing
        }
        if count > 0 { add(.text(block: index, firstLine: first, lineCount: count, x: body.x, y: top, width: body.width)) }
    }

    /// Average character widths by font, from Pango's metrics.
    private var characterWidths: [Int: Double] = [:]

    /// Whether every paragraph of `block` probably fits on one line: then laying it out
    /// unwrapped is worth trying (`LaidOutBlock` checks).
    private func likelyFitsUnwrapped(_ block: TextBlock, width: Double) -> Bool {
        guard let longest = block.longestParagraph, block.alignment == .left else { return false }
        let characterWidth = characterWidths[block.font] ?? {
            guard let metrics = pango_context_get_metrics(context, composition.fonts[block.font].handle, nil) else { return .infinity }
            defer { pango_font_metrics_unref(metrics) }
            let average = Double(pango_font_metrics_get_approximate_char_width(metrics)) / Double(PANGO_SCALE)
            characterWidths[block.font] = average
            return average
        }()
        // A margin for lines with wider letters than the average.
        return Double(longest) * characterWidth <= (width - block.indent) * 0.9
    }

    /// Keeps what the draw pass needs of a block: plain text captured while the budget lasts
    /// (past it, plain text is laid out again when drawn, so memory stays flat), and the
    /// layouts of what cannot be captured.
    private func keep(_ laid: LaidOutBlock, index: Int, block: TextBlock) {
        let bytes = block.text.utf8.count
        if !block.isMarkup, let captured {
            guard captured.hasRoom else { return }
            if let capture = CapturedBlock.capture(laid, textLength: bytes) {
                captured.keep(capture, index: index)
                return
            }
        }
        cache?.keep(laid, index: index, bytes: bytes)
    }

    // MARK: - Items printed as they are

    private func placeItem(_ content: Composition.Content) throws {
        decorated = false
        switch content {
        case .text:
            geometry = PageGeometry(size: composition.paper, margin: 72)
            try newPage()
            try place(content)
        case .image(let index):
            let image = composition.images[index]
            var size = composition.paper
            if composition.job.info.orientation == nil {
                size = image.isWide ? composition.basePaper.landscape : composition.basePaper
            }
            geometry = PageGeometry(size: size, margin: 18)
            try newPage()
            add(.image(index: index, rect: PageGeometry.fit(width: Double(image.width), height: Double(image.height),
                                                            in: geometry.body, centre: true)))
        case .pdf(let index):
            let document = composition.documents[index]
            for page in 0..<document.pageCount {
                layout.pages.append(PageLayout.Page(size: try document.size(ofPage: page), decorated: false,
                                                    placements: [.pdf(document: index, page: page, rect: nil)]))
            }
            used = true
        }
    }
}

@available(*, unavailable) extension PageLayoutBuilder: Sendable {}

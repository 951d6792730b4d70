import OutboxModel

/// Where header, footer and body go on a page-renderer page. The insets are the page margins
/// on every page, all four sides; header and footer bands sit inside them, and the body is
/// what is left, narrowed to the maximum content width if one is set.
struct PageGeometry {
    let size: PaperSize
    let header: PageLayout.Rect
    let footer: PageLayout.Rect
    let body: PageLayout.Rect

    init(size: PaperSize, renderer: PageRenderer) throws {
        self.size = size
        let insets = renderer.insets
        for value in [insets.top, insets.left, insets.bottom, insets.right, renderer.headerHeight, renderer.footerHeight] where value < 0 || !value.isFinite {
            throw PrintRenderError.bad("insets, header and footer heights must be zero or more points")
        }
        let width = size.width - insets.left - insets.right
        header = .init(x: insets.left, y: insets.top, width: width, height: renderer.headerHeight)
        footer = .init(x: insets.left, y: size.height - insets.bottom - renderer.footerHeight, width: width, height: renderer.footerHeight)
        let bodyWidth = min(width, renderer.maximumContentWidth ?? width)
        body = .init(x: insets.left, y: header.maxY, width: bodyWidth, height: footer.y - header.maxY)
        guard body.width >= 36, body.height >= 36 else {
            throw PrintRenderError.bad("the insets, header and footer leave less than half an inch for content on a \(Int(size.width))x\(Int(size.height))pt page")
        }
    }

    /// A plain page: the same margins all round, no header or footer.
    init(size: PaperSize, margin: Double) {
        self.size = size
        header = .init(x: margin, y: margin, width: size.width - 2 * margin, height: 0)
        footer = .init(x: margin, y: size.height - margin, width: size.width - 2 * margin, height: 0)
        body = .init(x: margin, y: margin, width: size.width - 2 * margin, height: size.height - 2 * margin)
    }

    /// `inner` (width × height) scaled to fit `rect`, aspect kept, centred horizontally and
    /// vertically when `centre`, else at the top.
    static func fit(width: Double, height: Double, in rect: PageLayout.Rect, centre: Bool) -> PageLayout.Rect {
        let scale = min(rect.width / width, rect.height / height)
        let w = width * scale, h = height * scale
        return .init(x: rect.x + (rect.width - w) / 2, y: centre ? rect.y + (rect.height - h) / 2 : rect.y, width: w, height: h)
    }
}

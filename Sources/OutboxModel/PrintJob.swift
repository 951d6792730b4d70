/// A print job: print info plus content (the seeds' UIPrintInfo + printing item(s) or a
/// UIPrintPageRenderer with formatters). Stored as JSON with the message; files it uses (items,
/// font files, images, PDFs) are attachments referenced by position.
public struct PrintJob: Codable, Sendable, Equatable {
    public var info: PrintInfo
    public var content: PrintContent

    public init(info: PrintInfo, content: PrintContent) {
        self.info = info
        self.content = content
    }
}

/// The seeds' UIPrintInfo plus the print options of the panel.
public struct PrintInfo: Codable, Sendable, Equatable {
    public enum OutputType: String, Codable, Sendable, CaseIterable { case general, grayscale, photo }
    public enum Duplex: String, Codable, Sendable, CaseIterable {
        case none
        case longEdge = "long-edge"
        case shortEdge = "short-edge"
    }
    public enum Orientation: String, Codable, Sendable, CaseIterable { case portrait, landscape }

    public var jobName: String
    public var outputType: OutputType
    public var duplex: Duplex
    /// `nil`: portrait, or landscape automatically for a wide image.
    public var orientation: Orientation?
    /// `A4`, `Letter`, … or `WxH` with a unit (`210x297mm`, `8.5x11in`, `612x792pt`).
    public var paper: String
    public var copies: Int
    /// CUPS syntax: `1-3,5`.
    public var pageRanges: String?

    public init(jobName: String, outputType: OutputType = .general, duplex: Duplex = .none,
                orientation: Orientation? = nil, paper: String = "A4", copies: Int = 1, pageRanges: String? = nil) {
        self.jobName = jobName
        self.outputType = outputType
        self.duplex = duplex
        self.orientation = orientation
        self.paper = paper
        self.copies = copies
        self.pageRanges = pageRanges
    }

    enum CodingKeys: String, CodingKey {
        case jobName = "job_name", outputType = "output", duplex, orientation, paper, copies
        case pageRanges = "pages"
    }
}

/// Exactly one of: items printed as they are (PDF or image attachments), or a page renderer.
public enum PrintContent: Codable, Sendable, Equatable {
    /// Attachment positions of PDF/image files, printed in order.
    case items([Int])
    case renderer(PageRenderer)
}

/// The seeds' UIPrintPageRenderer: header, footer, overlay and formatters.
public struct PageRenderer: Codable, Sendable, Equatable {
    public var headerHeight: Double
    public var footerHeight: Double
    public var header: HeaderFooter
    public var footer: HeaderFooter
    /// UIKit's classic "no header on the first page".
    public var headerOnFirstPage: Bool
    /// Watermark drawn centred and semi-transparent on every page.
    public var overlay: String?
    /// Content insets in points, applied on every page, all four sides.
    public var insets: EdgeInsets
    public var maximumContentWidth: Double?
    public var title: String?
    public var author: String?
    public var formatters: [PrintFormatter]

    public init(headerHeight: Double = 0, footerHeight: Double = 0, header: HeaderFooter = .init(),
                footer: HeaderFooter = .init(), headerOnFirstPage: Bool = true, overlay: String? = nil,
                insets: EdgeInsets = .init(top: 72, left: 72, bottom: 72, right: 72),
                maximumContentWidth: Double? = nil, title: String? = nil, author: String? = nil,
                formatters: [PrintFormatter]) {
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
        self.header = header
        self.footer = footer
        self.headerOnFirstPage = headerOnFirstPage
        self.overlay = overlay
        self.insets = insets
        self.maximumContentWidth = maximumContentWidth
        self.title = title
        self.author = author
        self.formatters = formatters
    }
}

/// Left/centre/right texts; `{page}`, `{pages}`, `{title}`, `{author}`, `{date}` are replaced.
public struct HeaderFooter: Codable, Sendable, Equatable {
    public var left: String?
    public var center: String?
    public var right: String?
    public init(left: String? = nil, center: String? = nil, right: String? = nil) {
        self.left = left
        self.center = center
        self.right = right
    }
    public var isEmpty: Bool { left == nil && center == nil && right == nil }
}

public struct EdgeInsets: Codable, Sendable, Equatable {
    public var top: Double, left: Double, bottom: Double, right: Double
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
}

/// One formatter of a page renderer, starting at a page index (0-based, as UIKit).
public struct PrintFormatter: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case text, markup, image, pdf }
    public enum Alignment: String, Codable, Sendable, CaseIterable { case left, center, right, justified }

    public var kind: Kind
    public var startPage: Int
    /// Text for `text` and `markup` (an HTML subset).
    public var text: String?
    /// Attachment position of the image or PDF for `image` and `pdf`.
    public var attachment: Int?
    /// Pango font description (`DejaVu Serif 11`); `nil` uses the configured default.
    public var font: String?
    /// Attachment position of a TTF/OTF font file.
    public var fontAttachment: Int?
    /// Multiple of the font's natural line height; `nil` uses the configured default.
    public var lineSpacing: Double?
    public var alignment: Alignment
    /// `#rrggbb`.
    public var color: String?

    public init(kind: Kind, startPage: Int = 0, text: String? = nil, attachment: Int? = nil,
                font: String? = nil, fontAttachment: Int? = nil, lineSpacing: Double? = nil,
                alignment: Alignment = .left, color: String? = nil) {
        self.kind = kind
        self.startPage = startPage
        self.text = text
        self.attachment = attachment
        self.font = font
        self.fontAttachment = fontAttachment
        self.lineSpacing = lineSpacing
        self.alignment = alignment
        self.color = color
    }
}

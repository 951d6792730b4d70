import CPangoCairo
import Foundation
import OutboxModel

/// A print job with its inputs opened and checked: fonts resolved (font files read by
/// fontconfig), text split into blocks, images sized, PDFs opened. Building one is the
/// compose-time check: an unknown image format, a corrupt PDF or a font file that is not a
/// font fails here, before anything is written.
final class Composition {
    /// One unit of content, in the order the layout pass places them.
    enum Content {
        case text(Range<Int>)
        case image(Int)
        case pdf(Int)
    }

    enum Step {
        /// A page-renderer formatter starting at a 0-based page index.
        case formatter(startPage: Int, Content)
        /// An item printed as it is.
        case item(Content)
    }

    let job: PrintJob
    let defaults: PrintDefaults
    /// The paper as named, before orientation.
    let basePaper: PaperSize
    /// The paper turned to the job's orientation.
    private(set) var paper = PaperSize(width: 0, height: 0)
    let ranges: PageRangeSet?
    let grayscale: Bool
    private(set) var renderer: PageRenderer?
    private(set) var fonts: [FontDescription] = []
    private(set) var fontFiles: [String] = []
    private(set) var blocks: [TextBlock] = []
    private(set) var images: [RasterImage] = []
    private(set) var documents: [PopplerDocument] = []
    private(set) var steps: [Step] = []

    /// Plain text is laid out in blocks of at most this many paragraphs or bytes: big enough
    /// that Pango's per-layout cost vanishes, small enough that memory stays flat and that
    /// Pango's itemizer, which counts the characters of the rest of the layout's text for each
    /// paragraph, does not grow quadratic (10 paragraphs lay out some 15 % faster than 40).
    static let blockParagraphs = 10
    static let blockBytes = 4096

    init(job: PrintJob, defaults: PrintDefaults, files: any PrintFileResolver) throws {
        self.job = job
        self.defaults = defaults
        basePaper = try PaperSize.parse(job.info.paper)
        ranges = try job.info.pageRanges.map { text throws(PrintRenderError) in try PageRangeSet.parse(text) }
        grayscale = job.info.outputType == .grayscale
        fonts.append(FontDescription(string: defaults.font))
        switch job.content {
        case .renderer(let renderer):
            self.renderer = renderer
            for (index, formatter) in renderer.formatters.enumerated() {
                guard (0..<10_000).contains(formatter.startPage) else {
                    throw PrintRenderError.bad("formatter \(index + 1) starts at page index \(formatter.startPage): use 0 to 9999")
                }
                steps.append(.formatter(startPage: formatter.startPage, try content(of: formatter, number: index + 1, files: files)))
            }
        case .items(let positions):
            renderer = nil
            guard !positions.isEmpty else { throw PrintRenderError.bad("the print job has nothing to print") }
            for position in positions { steps.append(.item(try item(position, files: files))) }
        }
        let firstImage = steps.lazy.compactMap { step -> Int? in
            switch step {
            case .formatter(_, .image(let index)), .item(.image(let index)): index
            default: nil
            }
        }.first
        switch job.info.orientation {
        case .portrait?: paper = basePaper.portrait
        case .landscape?: paper = basePaper.landscape
        case nil: paper = firstImage.map { images[$0].isWide } == true ? basePaper.landscape : basePaper
        }
    }

    // MARK: - Formatters

    private func content(of formatter: PrintFormatter, number: Int, files: any PrintFileResolver) throws -> Content {
        switch formatter.kind {
        case .text, .markup:
            guard let text = formatter.text else { throw PrintRenderError.bad("formatter \(number) (\(formatter.kind.rawValue)) has no text") }
            let font = try font(for: formatter, files: files)
            let spacing = formatter.lineSpacing ?? defaults.lineSpacing
            guard (0.5...5).contains(spacing) else {
                throw PrintRenderError.bad("formatter \(number): line spacing \(spacing) is outside 0.5…5")
            }
            let color = try formatter.color.map { try RGBColor(hex: $0) }
            let template = TextBlock(text: "", isMarkup: formatter.kind == .markup, font: font, alignment: formatter.alignment,
                                     lineSpacing: spacing, color: color)
            let start = blocks.count
            if formatter.kind == .text {
                appendPlainText(text, template: template)
            } else {
                for converted in MarkupConverter.convert(text, baseSize: fonts[font].points, gray: grayscale) {
                    var block = template
                    block.text = converted.markup
                    block.indent = converted.indent
                    block.spaceBefore = converted.spaceBefore
                    blocks.append(block)
                }
            }
            return .text(start..<blocks.count)
        case .image:
            guard let position = formatter.attachment else { throw PrintRenderError.bad("formatter \(number) (image) names no image file") }
            images.append(try RasterImage(path: files.path(forAttachment: position), name: files.displayName(forAttachment: position)))
            return .image(images.count - 1)
        case .pdf:
            guard let position = formatter.attachment else { throw PrintRenderError.bad("formatter \(number) (pdf) names no PDF file") }
            documents.append(try PopplerDocument(path: files.path(forAttachment: position), name: files.displayName(forAttachment: position)))
            return .pdf(documents.count - 1)
        }
    }

    /// The font table index for a formatter: its Pango description, or the face of its font
    /// file at the description's (or the default) size.
    private func font(for formatter: PrintFormatter, files: any PrintFileResolver) throws -> Int {
        var sized = fonts[0]
        if let text = formatter.font {
            let parsed = FontDescription(string: text)
            if pango_font_description_get_size(parsed.handle) <= 0 {
                pango_font_description_set_size(parsed.handle, fonts[0].size)
            }
            sized = parsed
        }
        if let position = formatter.fontAttachment {
            let path = try files.path(forAttachment: position)
            fonts.append(try FontDescription.fromFile(path, name: files.displayName(forAttachment: position), sizeFrom: sized))
            if !fontFiles.contains(path) { fontFiles.append(path) }
            return fonts.count - 1
        }
        if sized === fonts[0] { return 0 }
        fonts.append(sized)
        return fonts.count - 1
    }

    /// Splits text into blocks at paragraph boundaries; a form feed starts a new page.
    ///
    /// Works on UTF-8 bytes: LF, CR and FF are ASCII and always break graphemes, so splitting
    /// bytes cuts where splitting characters would, without grapheme breaking a long text.
    private func appendPlainText(_ text: String, template: TextBlock) {
        var bytes = Array(text.utf8)
        if bytes.contains(13) {
            var lf: [UInt8] = []
            lf.reserveCapacity(bytes.count)
            for (index, byte) in bytes.enumerated() where byte != 13 || index + 1 == bytes.count || bytes[index + 1] != 10 {
                lf.append(byte)
            }
            bytes = lf
        }
        if bytes.last == 10 { bytes.removeLast() }
        for (sectionIndex, section) in bytes.split(separator: 12, omittingEmptySubsequences: false).enumerated() {
            var chunkStart = section.startIndex, chunkEnd = section.startIndex
            var paragraphs = 0, longest: Int? = 0
            var firstOfSection = true
            func emit() {
                var block = template
                block.text = String(decoding: bytes[chunkStart..<chunkEnd], as: UTF8.self)
                block.pageBreakBefore = sectionIndex > 0 && firstOfSection
                block.longestParagraph = longest
                blocks.append(block)
                firstOfSection = false
                paragraphs = 0
                longest = 0
            }
            for paragraph in section.split(separator: 10, omittingEmptySubsequences: false) {
                if paragraphs == 0 { chunkStart = paragraph.startIndex }
                chunkEnd = paragraph.endIndex
                paragraphs += 1
                if let known = longest { longest = Self.characters(paragraph).map { max(known, $0) } }
                if paragraphs >= Self.blockParagraphs || chunkEnd - chunkStart >= Self.blockBytes { emit() }
            }
            if paragraphs > 0 || firstOfSection {
                if paragraphs == 0 { chunkStart = chunkEnd }
                emit()
            }
        }
    }

    /// Characters in UTF-8 `bytes`; `nil` if any is Hebrew, Arabic or another right-to-left
    /// script of U+0590–U+07FF (lead bytes D6–DF), which Pango aligns to the right.
    private static func characters(_ bytes: ArraySlice<UInt8>) -> Int? {
        var count = 0
        for byte in bytes {
            if byte & 0xC0 != 0x80 { count += 1 }
            if (0xD6...0xDF).contains(byte) { return nil }
        }
        return count
    }

    // MARK: - Items

    private func item(_ position: Int, files: any PrintFileResolver) throws -> Content {
        let path = try files.path(forAttachment: position)
        let name = files.displayName(forAttachment: position)
        switch DocumentType.sniff(try RasterImage.head(path, name: name, count: 4096)) {
        case .pdf?:
            documents.append(try PopplerDocument(path: path, name: name))
            return .pdf(documents.count - 1)
        case .png?, .jpeg?:
            images.append(try RasterImage(path: path, name: name))
            return .image(images.count - 1)
        case .text?:
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw PrintRenderError.bad("\(name) is not UTF-8 text")
            }
            let start = blocks.count
            appendPlainText(text, template: TextBlock(text: "", isMarkup: false, font: 0, alignment: .left,
                                                      lineSpacing: defaults.lineSpacing, color: nil))
            return .text(start..<blocks.count)
        case nil:
            throw PrintRenderError.bad("\(name) is not a PDF, PNG, JPEG or text file (unknown document type)")
        }
    }

    // MARK: - Selection

    /// Whether pages can be written as they are laid out: not when a page range must be applied
    /// or a header or footer shows `{pages}` (both need the count before page 1 is written), and
    /// only for page-renderer jobs.
    var canRenderInOnePass: Bool {
        guard ranges == nil, let renderer else { return false }
        let texts = [renderer.header.left, renderer.header.center, renderer.header.right,
                     renderer.footer.left, renderer.footer.center, renderer.footer.right, renderer.overlay]
        return !texts.contains { $0?.contains("{pages}") == true }
    }

    /// The 0-based indexes of the pages to write; at least one.
    func selection(of layout: PageLayout) throws -> [Int] {
        let all = Array(layout.pages.indices)
        guard let ranges else { return all }
        let selected = ranges.select(from: all.count)
        guard !selected.isEmpty else {
            throw PrintRenderError.bad("page ranges \(job.info.pageRanges ?? "") select none of the \(all.count) pages")
        }
        return selected
    }
}

@available(*, unavailable) extension Composition: Sendable {}

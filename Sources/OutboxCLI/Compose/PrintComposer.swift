import FoundationEssentials
import OutboxModel

/// Builds a print job from `outbox print` / `outbox render` flags: print info plus either the
/// files as items or a page renderer with one formatter. This is the seeds' `canPrint` check:
/// unknown document types, empty content and bad options are refused before anything is stored.
enum PrintComposer {
    static let specs: [OptionSpec] = [
        .value("text", "TEXT", "print this text"),
        .value("text-file", "FILE", "print a UTF-8 text file (- for stdin)"),
        .value("html-file", "FILE", "print an HTML file (a subset: h1–h3, p, br, b, i, u, lists, font colour)"),
        .value("to", "DEST", "pdf or a CUPS queue (default: config print.default_destination)"),
        .value("job-name", "NAME", "job name (default: the first file's name or 'Untitled')"),
        .value("copies", "N", "number of copies (default 1)"),
        .value("duplex", "none|long-edge|short-edge", "two-sided printing"),
        .value("orientation", "portrait|landscape", "page orientation (default portrait; wide images turn landscape)"),
        .value("output", "general|grayscale|photo", "output type"),
        .value("paper", "SIZE", "A4, Letter, Legal, A3, A5, B5, Tabloid, or WxH with mm/in/pt (e.g. 100x150mm)"),
        .value("pages", "RANGES", "pages to print, e.g. 1-3,5"),
        .value("font", "DESC", "font, e.g. 'DejaVu Serif 11'"),
        .value("font-file", "FILE", "a TTF or OTF font file to set the text in"),
        .value("line-spacing", "X", "line spacing as a multiple of the font's line height (e.g. 1.5)"),
        .value("align", "left|center|right|justified", "text alignment"),
        .value("color", "#RRGGBB", "text colour"),
        .value("insets", "T,L,B,R", "content insets in points on every page (default 72,72,72,72)"),
        .value("max-width", "PT", "maximum content width in points"),
        .value("header-height", "PT", "header height in points"),
        .value("footer-height", "PT", "footer height in points"),
        .value("header-left", "TEXT", "header text; {page} {pages} {title} {author} {date} are replaced"),
        .value("header-center", "TEXT", "header text"),
        .value("header-right", "TEXT", "header text"),
        .value("footer-left", "TEXT", "footer text"),
        .value("footer-center", "TEXT", "footer text"),
        .value("footer-right", "TEXT", "footer text"),
        .flag("no-header-first-page", "leave the header off page 1"),
        .value("overlay", "TEXT", "watermark drawn across every page"),
        .value("append", "FILE[;page=N]", "add another formatter: a text or HTML file, starting on page N (default: right after the previous one; repeatable)", repeatable: true),
        .value("title", "TEXT", "title for {title}"),
        .value("author", "TEXT", "author for {author}"),
    ]

    static let paperNames = ["A3", "A4", "A5", "B5", "Letter", "Legal", "Tabloid"]

    static func message(_ args: ParsedArguments, config: Config) throws -> NewMessage {
        let sources = [!args.positionals.isEmpty, args.has("text"), args.has("text-file"), args.has("html-file")].filter { $0 }.count
        guard sources == 1 else {
            throw OutboxError.usage(sources == 0 ? "nothing to print: give FILE…, --text, --text-file or --html-file"
                                                 : "give one of FILE…, --text, --text-file or --html-file")
        }
        var files: [NewAttachment] = []
        var formatter: PrintFormatter?
        var items: [Int] = []
        var firstName: String?
        if let text = args.value("text") {
            formatter = PrintFormatter(kind: .text, text: text)
        } else if let path = args.value("text-file") {
            formatter = PrintFormatter(kind: .text, text: try MailComposer.readText(path, what: "--text-file"))
            firstName = path == "-" ? nil : Paths.lastComponent(path)
        } else if let path = args.value("html-file") {
            formatter = PrintFormatter(kind: .markup, text: try MailComposer.readText(path, what: "--html-file"))
            firstName = path == "-" ? nil : Paths.lastComponent(path)
        } else {
            for spec in args.positionals {
                let file = try FileArgument.parse(spec)
                firstName = firstName ?? file.filename
                guard let type = DocumentType.sniff(try FileArgument.head(file.path)) else {
                    throw OutboxError.data("cannot print \(spec): unknown document type (outbox prints PDF, PNG, JPEG and UTF-8 text)")
                }
                if type == .text {
                    guard args.positionals.count == 1 else {
                        throw OutboxError.usage("a text file is printed on its own; print PDFs and images together, or use --text-file")
                    }
                    formatter = PrintFormatter(kind: .text, text: try MailComposer.readText(file.path, what: "file"))
                } else {
                    items.append(files.count)
                    files.append(NewAttachment(path: file.path, role: .item, filename: file.filename, mimeType: type.mimeType))
                }
            }
        }
        if var f = formatter {
            guard let text = f.text, !text.isBlank else {
                throw OutboxError.data("nothing to print: the text is empty")
            }
            f.font = args.value("font")
            f.lineSpacing = try args.double("line-spacing", range: 0.5...5)
            if let align = try args.choice("align", PrintFormatter.Alignment.allCases.map(\.rawValue)) { f.alignment = .init(rawValue: align)! }
            if let color = args.value("color") {
                guard color.count == 7, color.hasPrefix("#"), color.dropFirst().allSatisfy(\.isHexDigit) else {
                    throw OutboxError.usage("--color must look like #RRGGBB, not '\(color)'")
                }
                f.color = color
            }
            if let fontFile = args.value("font-file") {
                let file = try FileArgument.parse(fontFile)
                let head = try FileArgument.head(file.path, count: 4)
                let isFont = head == [0, 1, 0, 0] || head == Array("OTTO".utf8) || head == Array("true".utf8) || head == Array("ttcf".utf8)
                guard isFont else { throw OutboxError.data("--font-file \(fontFile) is not a TrueType or OpenType font") }
                f.fontAttachment = files.count
                files.append(NewAttachment(path: file.path, role: .font, filename: file.filename,
                                           mimeType: head == Array("OTTO".utf8) ? "font/otf" : "font/ttf"))
            }
            formatter = f
        } else {
            for flag in ["font", "font-file", "line-spacing", "align", "color"] where args.has(flag) {
                throw OutboxError.usage("--\(flag) applies to text; PDF and image files are printed as they are")
            }
        }
        let jobName = args.value("job-name") ?? firstName ?? "Untitled"
        try HeaderText.checkSafe(jobName, field: "--job-name")
        var info = PrintInfo(jobName: jobName, paper: config.print.defaults.paper)
        if let v = try args.choice("output", PrintInfo.OutputType.allCases.map(\.rawValue)) { info.outputType = .init(rawValue: v)! }
        if let v = try args.choice("duplex", PrintInfo.Duplex.allCases.map(\.rawValue)) { info.duplex = .init(rawValue: v)! }
        if let v = try args.choice("orientation", PrintInfo.Orientation.allCases.map(\.rawValue)) { info.orientation = .init(rawValue: v)! }
        if let paper = args.value("paper") { info.paper = try checkPaper(paper) }
        info.copies = try args.int("copies", range: 1...999) ?? 1
        if let pages = args.value("pages") { info.pageRanges = try checkPageRanges(pages) }

        let content: PrintContent
        if let formatter {
            var renderer = PageRenderer(formatters: [formatter] + (try appendedFormatters(args, base: formatter)))
            if let insets = args.value("insets") { renderer.insets = try parseInsets(insets) }
            renderer.maximumContentWidth = try args.double("max-width", range: 36...5000)
            renderer.headerHeight = try args.double("header-height", range: 0...500) ?? 0
            renderer.footerHeight = try args.double("footer-height", range: 0...500) ?? 0
            renderer.header = HeaderFooter(left: args.value("header-left"), center: args.value("header-center"), right: args.value("header-right"))
            renderer.footer = HeaderFooter(left: args.value("footer-left"), center: args.value("footer-center"), right: args.value("footer-right"))
            if !renderer.header.isEmpty && renderer.headerHeight == 0 { renderer.headerHeight = 36 }
            if !renderer.footer.isEmpty && renderer.footerHeight == 0 { renderer.footerHeight = 36 }
            renderer.headerOnFirstPage = !args.has("no-header-first-page")
            renderer.overlay = args.value("overlay")
            renderer.title = args.value("title") ?? jobName
            renderer.author = args.value("author")
            content = .renderer(renderer)
        } else {
            for flag in ["append", "insets", "max-width", "header-height", "footer-height", "header-left", "header-center", "header-right",
                         "footer-left", "footer-center", "footer-right", "overlay", "no-header-first-page"] where args.has(flag) {
                throw OutboxError.usage("--\(flag) applies to text and HTML jobs (the page renderer); PDF and image files are printed as they are")
            }
            content = .items(items)
        }
        var message = NewMessage(content: .print(PrintJob(info: info, content: content)), files: files)
        if let destination = args.value("to") {
            guard !destination.isEmpty, !destination.contains("/"), !destination.contains(where: \.isWhitespace) else {
                throw OutboxError.usage("--to '\(destination)' is not a printer name: use pdf or a CUPS queue name (`outbox printers`)")
            }
            message.destination = destination
        }
        try ComposeOptions.apply(args, to: &message, config: config)
        return message
    }

    /// `--append FILE[;page=N]`: more formatters after the first, the seeds'
    /// `addPrintFormatter(_:startingAtPageAt:)`. HTML is recognised by its content (`<` first);
    /// the font and spacing options apply to every formatter.
    static func appendedFormatters(_ args: ParsedArguments, base: PrintFormatter) throws -> [PrintFormatter] {
        try args.all("append").map { spec in
            var parts = spec.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            let path = parts.removeFirst()
            var startPage = 0
            for part in parts {
                guard part.hasPrefix("page="), let page = Int(part.dropFirst(5)), page >= 1 else {
                    throw OutboxError.usage("--append '\(spec)': after the file only ;page=N (N from 1) is understood")
                }
                startPage = page - 1
            }
            let text = try MailComposer.readText(path, what: "--append")
            guard !text.isBlank else {
                throw OutboxError.data("nothing to print in --append \(path): the file is empty")
            }
            let isMarkup = text.drop(while: { $0.isWhitespace }).first == "<"
            var formatter = base
            formatter.kind = isMarkup ? .markup : .text
            formatter.text = text
            formatter.startPage = startPage
            return formatter
        }
    }

    static func checkPaper(_ text: String) throws(OutboxError) -> String {
        if let name = paperNames.first(where: { $0.lowercased() == text.lowercased() }) { return name }
        let lower = text.lowercased()
        for unit in ["mm", "in", "pt"] where lower.hasSuffix(unit) {
            let dims = lower.dropLast(2).split(separator: "x")
            if dims.count == 2, let w = Double(dims[0]), let h = Double(dims[1]), w > 0, h > 0, w < 10_000, h < 10_000 {
                return lower
            }
        }
        throw .usage("--paper '\(text)' is not a paper size: use \(paperNames.joined(separator: ", ")) or WxH with mm, in or pt (e.g. 100x150mm)")
    }

    static func checkPageRanges(_ text: String) throws(OutboxError) -> String {
        let ok = text.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { part in
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count), let first = Int(bounds[0]), first >= 1 else { return false }
            if bounds.count == 2 { guard let last = Int(bounds[1]), last >= first else { return false } }
            return true
        }
        guard ok else { throw .usage("--pages '\(text)' is not a page range: use e.g. 1-3,5 (pages count from 1)") }
        return text
    }

    static func parseInsets(_ text: String) throws(OutboxError) -> EdgeInsets {
        let values = text.split(separator: ",").compactMap { Double($0.trimmingSpaces()) }
        guard values.allSatisfy({ $0 >= 0 && $0 < 1000 }) else { throw .usage("--insets values must be points from 0 to 1000") }
        switch values.count {
        case 1: return EdgeInsets(top: values[0], left: values[0], bottom: values[0], right: values[0])
        case 4: return EdgeInsets(top: values[0], left: values[1], bottom: values[2], right: values[3])
        default: throw .usage("--insets must be T,L,B,R in points (or one number for all four), not '\(text)'")
        }
    }
}

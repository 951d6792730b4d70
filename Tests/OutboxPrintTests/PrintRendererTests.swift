import Foundation
import OutboxModel
import Testing
@testable import OutboxPrint

@Suite final class PrintRendererTests {
    let directory: String

    init() throws { directory = try PDFTools.temporaryDirectory() }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func render(_ job: PrintJob, files: [Int: String] = [:], name: String = "out") throws -> (path: String, pages: Int) {
        let path = directory + "/\(name).pdf"
        let pages = try PrintRenderer(job: job).render(files: LocalPrintFiles(files), to: path)
        return (path, pages)
    }

    // MARK: - Paper and pages

    @Test(arguments: [("A4", 595.0, 842.0), ("Letter", 612, 792), ("Legal", 612, 1008), ("A5", 420, 595),
                      ("100x150mm", 283, 425), ("8.5x11in", 612, 792), ("500x300pt", 500, 300)])
    func paperSizes(paper: String, width: Double, height: Double) throws {
        let (path, pages) = try render(SampleJobs.text("x", info: PrintInfo(jobName: "p", paper: paper)), name: paper)
        #expect(pages == 1)
        let size = try PDFTools.pageSize(path)
        #expect(abs(size.width - width) < 1.5 && abs(size.height - height) < 1.5)
    }

    @Test func landscapeSwapsSides() throws {
        let (path, _) = try render(SampleJobs.text("x", info: PrintInfo(jobName: "l", orientation: .landscape)))
        let size = try PDFTools.pageSize(path)
        #expect(size.width > size.height)
    }

    @Test func unknownPaperIsBadInput() {
        #expect(throws: PrintRenderError.bad("unknown paper Foolscap: use A3, A4, A5, B5, Letter, Legal, Tabloid or WxH with mm, cm, in or pt (210x297mm)")) {
            try PaperSize.parse("Foolscap")
        }
    }

    @Test func pageRangesSelectPagesAndCountIsKnownFirst() throws {
        let job = SampleJobs.text("Alpha\u{0C}Bravo\u{0C}Charlie\u{0C}Delta\u{0C}Echo",
                                  info: PrintInfo(jobName: "r", pageRanges: "2,4-"))
        #expect(try PrintRenderer(job: job).pageCount(files: LocalPrintFiles([:])) == 3)
        let (path, pages) = try render(job)
        #expect(pages == 3)
        #expect(try PDFTools.pages(path) == 3)
        #expect(try PDFTools.text(path, page: 1).contains("Bravo"))
        #expect(try PDFTools.text(path, page: 3).contains("Echo"))
        #expect(throws: PrintRenderError.self) {
            try PrintRenderer(job: SampleJobs.text("one page", info: PrintInfo(jobName: "r", pageRanges: "5-9"))).pageCount(files: LocalPrintFiles([:]))
        }
    }

    // MARK: - Page renderer

    @Test func headerFooterPlaceholdersAndNoHeaderOnPageOne() throws {
        let (path, pages) = try render(SampleJobs.seedsExample())
        #expect(pages >= 3)
        let first = try PDFTools.text(path, page: 1)
        #expect(!first.contains("Outbox Tester"))
        #expect(first.contains("Page 1 of \(pages)"))
        for page in 2...pages {
            let text = try PDFTools.text(path, page: page)
            #expect(text.contains("Outbox Tester") && text.contains("Send It Out"))
            #expect(text.contains("Page \(page) of \(pages)"))
        }
    }

    @Test func secondFormatterStartsOnPageTwo() throws {
        let (path, _) = try render(SampleJobs.seedsExample(body: "short"))
        #expect(try PDFTools.text(path, page: 1).contains("Intro 3"))
        #expect(!(try PDFTools.text(path, page: 1).contains("Chapter")))
        #expect(try PDFTools.text(path, page: 2).contains("Chapter"))
    }

    @Test func insetsHoldOnEveryPageAllFourSides() throws {
        let insets = EdgeInsets(top: 100, left: 80, bottom: 120, right: 90)
        let (path, pages) = try render(SampleJobs.text(SampleJobs.lines(200), insets: insets))
        #expect(pages >= 3)
        let (width, height) = try PDFTools.pageSize(path)
        let words = try PDFTools.words(path)
        for page in 1...pages {
            let onPage = words.filter { $0.page == page }
            #expect(!onPage.isEmpty)
            // pdftotext boxes include a little of the font's ascent: allow 2 pt.
            #expect(onPage.allSatisfy { $0.xMin >= insets.left - 2 && $0.xMax <= width - insets.right + 2 })
            #expect(onPage.allSatisfy { $0.yMin >= insets.top - 2 && $0.yMax <= height - insets.bottom + 2 })
            if page < pages {
                // Full pages use the space down to the bottom inset, not beyond.
                #expect(onPage.map(\.yMax).max()! > height - insets.bottom - 30)
            }
        }
        #expect(words.filter { $0.page == 2 }.map(\.yMin).min()! < insets.top + 15)
    }

    @Test func lineSpacingMovesLines() throws {
        func secondLineOffset(_ spacing: Double) throws -> Double {
            let (path, _) = try render(SampleJobs.text("First\nSecond", font: "DejaVu Sans 12", lineSpacing: spacing), name: "ls\(spacing)")
            let words = try PDFTools.words(path)
            let first = try #require(words.first { $0.text == "First" }), second = try #require(words.first { $0.text == "Second" })
            return second.yMin - first.yMin
        }
        let single = try secondLineOffset(1.0), double = try secondLineOffset(2.0)
        #expect(abs(double - 2 * single) < 1.0)
    }

    @Test func markupHeadingsListsAndColours() throws {
        let job = PrintJob(info: PrintInfo(jobName: "m"), content: .renderer(PageRenderer(formatters: [
            PrintFormatter(kind: .markup, text: "<h2>Title &amp; more</h2><p>Para with <font color=\"#ff0000\">red</font> <blink>kept</blink></p><ol><li>first</li><li>second</li></ol><script>dropped()</script>"),
        ])))
        let (path, _) = try render(job)
        let text = try PDFTools.text(path)
        #expect(text.contains("Title & more"))
        #expect(text.contains("red kept"))
        #expect(text.contains("1. first") && text.contains("2. second"))
        #expect(!text.contains("dropped"))
    }

    // MARK: - Fonts and scripts

    @Test func otfAndTtfFontFilesEmbedAsSubsets() throws {
        let otf = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"
        let ttf = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
        let job = PrintJob(info: PrintInfo(jobName: "f"), content: .renderer(PageRenderer(formatters: [
            PrintFormatter(kind: .text, text: "Set in an OpenType CFF face", font: "14", fontAttachment: 0),
            PrintFormatter(kind: .text, text: "Set in a TrueType face", fontAttachment: 1),
        ])))
        let (path, _) = try render(job, files: [0: otf, 1: ttf])
        let fonts = try PDFTools.fonts(path)
        let nimbus = try #require(fonts.first { $0.name.contains("NimbusSans") })
        #expect(nimbus.embedded && nimbus.subset && nimbus.name.contains("+"))
        #expect(nimbus.type.contains("1C") || nimbus.type.contains("0C"))
        let mono = try #require(fonts.first { $0.name.contains("DejaVuSansMono") })
        #expect(mono.embedded && mono.subset && mono.type.contains("TrueType"))
        #expect(fonts.allSatisfy { $0.embedded })
    }

    @Test func japaneseAndRightToLeftTextShape() throws {
        let job = SampleJobs.text("日本語のテキストを印刷します。\nשלום עולם\nمرحبا بالعالم", font: "Noto Sans CJK JP 12")
        let (path, _) = try render(job)
        let text = try PDFTools.text(path)
        #expect(text.contains("日本語のテキスト"))
        #expect(try PDFTools.fonts(path).contains { $0.name.contains("NotoSansCJK") && $0.embedded })
    }

    /// A long plain text is drawn from the glyph runs the layout pass captured: it must land
    /// on the same pages at the same places as drawn by Pango, also when only part of it was
    /// captured and the rest is laid out again.
    @Test func capturedTextDrawsAsPangoDoes() throws {
        let samples = [
            "Plain ASCII with\ttabs\tin it and an unbreakable " + String(repeating: "x", count: 90),
            "日本語のテキストを印刷します。漢字とかなが混ざった行です。",
            "שלום עולם, Hebrew beside English 123",
            "مرحبا بالعالم — Arabic joins its letters",
            "Combining e\u{301}te\u{301}, ligatures in office and affluent, justified lines follow",
        ]
        var lines = (0..<600).map { "\($0): " + samples[$0 % samples.count] }
        lines[300] += " and a private-use \u{E000} no font has"
        let text = lines.joined(separator: "\n")
        func render(footer: String = "{page} / {pages}", budget: Int = KeptBlocks<CapturedBlock>.captureBudget, name: String) throws -> (path: String, pages: Int) {
            let job = PrintJob(info: PrintInfo(jobName: "Long"), content: .renderer(PageRenderer(
                footerHeight: 20, footer: HeaderFooter(center: footer),
                insets: EdgeInsets(top: 72, left: 72, bottom: 72, right: 72),
                formatters: [PrintFormatter(kind: .text, text: text),
                             PrintFormatter(kind: .text, text: text, alignment: .justified)])))
            var renderer = PrintRenderer(job: job)
            renderer.captureBudget = budget
            let path = directory + "/\(name).pdf"
            return (path, try renderer.render(files: LocalPrintFiles([:]), to: path))
        }
        func words(_ path: String, bodyOnly: Bool = false) throws -> [String] {
            try PDFTools.words(path).filter { !bodyOnly || $0.yMax < 842 - 72 - 20 }
                .map { "\($0.page) \($0.text) \($0.xMin) \($0.yMin) \($0.xMax) \($0.yMax)" }
        }
        let captured = try render(name: "captured")
        let pango = try render(budget: 0, name: "pango")
        let part = try render(budget: 150 * 1024, name: "part")
        let onePass = try render(footer: "{page}", name: "one-pass")
        #expect(captured.pages > 20 && [pango.pages, part.pages, onePass.pages].allSatisfy { $0 == captured.pages })
        let drawn = try PDFTools.text(captured.path)
        #expect(drawn.contains("日本語のテキスト") && drawn.contains("שלום עולם") && drawn.contains("مرحبا بالعالم"))
        let reference = try words(pango.path)
        #expect(try words(captured.path) == reference)
        #expect(try words(part.path) == reference)
        #expect(try words(captured.path, bodyOnly: true) == words(onePass.path, bodyOnly: true))
        #expect(try PDFTools.fonts(captured.path).map(\.name) == PDFTools.fonts(pango.path).map(\.name))
    }

    // MARK: - Output type, overlay, images, PDFs

    /// Pixels whose channels differ by more than a little: colour that survived.
    func colourful(_ rgb: [UInt8]) -> Int {
        stride(from: 0, to: rgb.count - 2, by: 3).filter { i in
            let (r, g, b) = (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
            return max(r, g, b) - min(r, g, b) > 12
        }.count
    }

    /// `pdfimages -list` rows as (page, colour space, encoding).
    func images(_ path: String) throws -> [(page: Int, color: String, encoding: String)] {
        try PDFTools.run(["pdfimages", "-list", path]).split(separator: "\n").dropFirst(2).map { row in
            let columns = row.split(separator: " ")
            return (Int(columns[0]) ?? 0, String(columns[5]), String(columns[8]))
        }
    }

    @Test func grayscaleTakesColourOutOfEverythingAtTheSource() throws {
        let png = ImageFixtures.png(width: 40, height: 40, in: directory)
        let source = try render(PrintJob(info: PrintInfo(jobName: "s"), content: .renderer(PageRenderer(formatters: [
            PrintFormatter(kind: .text, text: "EMBEDDED RED", font: "DejaVu Sans Bold 40", color: "#ff0000"),
            PrintFormatter(kind: .image, attachment: 0),
        ]))), files: [0: png], name: "source").path
        let jpeg = try ImageFixtures.jpeg(from: source, in: directory)
        let grayJPEG = try ImageFixtures.jpeg(from: source, gray: true, in: directory)
        // One kind of content a page, with a header, a footer and the overlay on each.
        func job(_ output: PrintInfo.OutputType) -> PrintJob {
            PrintJob(info: PrintInfo(jobName: "g", outputType: output), content: .renderer(PageRenderer(
                headerHeight: 30, footerHeight: 30, header: HeaderFooter(left: "{title}"), footer: HeaderFooter(center: "{page}"),
                overlay: "DRAFT", title: "Mixed",
                formatters: [
                    PrintFormatter(kind: .text, startPage: 0, text: "RED TEXT", font: "DejaVu Sans Bold 40", color: "#ff0000"),
                    PrintFormatter(kind: .markup, startPage: 1, text: "<h1><font color=\"#00c000\">GREEN</font> <span style=\"color: blue\">BLUE</span> <font color=\"orange\">ORANGE</font></h1>",
                                   font: "DejaVu Sans Bold 30"),
                    PrintFormatter(kind: .image, startPage: 2, attachment: 0),
                    PrintFormatter(kind: .image, startPage: 3, attachment: 1),
                    PrintFormatter(kind: .image, startPage: 4, attachment: 2),
                    PrintFormatter(kind: .pdf, startPage: 5, attachment: 3),
                ])))
        }
        let files = [0: png, 1: jpeg, 2: grayJPEG, 3: source]
        let colour = try render(job(.general), files: files, name: "colour")
        let gray = try render(job(.grayscale), files: files, name: "gray")
        #expect(colour.pages == 6 && gray.pages == 6)
        for page in 1...6 {
            let (width, height, colourPixels) = try PDFTools.pixels(colour.path, page: page, dpi: 30)
            let (grayWidth, grayHeight, grayPixels) = try PDFTools.pixels(gray.path, page: page, dpi: 30)
            #expect(grayWidth == width && grayHeight == height)
            // Page 5 is the gray JPEG: no colour to take out.
            if page != 5 { #expect(colourful(colourPixels) > 100, "page \(page) has colour to take out") }
            #expect(colourful(grayPixels) == 0, "page \(page) is gray")
            // Gray, not blank: each pixel is about the luma of the colour one.
            var difference = 0, dark = 0
            for i in stride(from: 0, to: min(colourPixels.count, grayPixels.count) - 2, by: 3) {
                let luma = (299 * Int(colourPixels[i]) + 587 * Int(colourPixels[i + 1]) + 114 * Int(colourPixels[i + 2])) / 1000
                difference += abs(luma - Int(grayPixels[i]))
                if grayPixels[i] < 200 { dark += 1 }
            }
            #expect(dark > 100, "page \(page) has its content")
            #expect(Double(difference) / Double(width * height) < 4, "page \(page) is the luma of the colour page")
        }
        // Still vector text, on the pages and in the PDF page, not rasterised pages.
        let text = try PDFTools.text(gray.path)
        #expect(text.contains("RED TEXT") && text.contains("GREEN") && text.contains("EMBEDDED RED") && text.contains("Mixed"))
        // The same images as in colour and no more (no page-sized fallback image): the PNG and
        // the colour JPEG as one gray image each, the gray JPEG as its own bytes.
        let colourImages = try images(colour.path), grayImages = try images(gray.path)
        #expect(grayImages.count == colourImages.count)
        #expect(grayImages.filter { (3...5).contains($0.page) }.map(\.color) == ["gray", "gray", "gray"])
        #expect(grayImages.first { $0.page == 5 }?.encoding == "jpeg")
    }

    @Test func grayscaleTextIsAsSmallAsColour() throws {
        func job(_ output: PrintInfo.OutputType) -> PrintJob {
            PrintJob(info: PrintInfo(jobName: "t", outputType: output), content: .renderer(PageRenderer(
                headerHeight: 30, footerHeight: 30, header: HeaderFooter(left: "{title}"), footer: HeaderFooter(center: "{page}"),
                overlay: "DRAFT", title: "Long",
                formatters: [
                    PrintFormatter(kind: .text, text: SampleJobs.lines(1500), color: "#2040c0"),
                    PrintFormatter(kind: .markup, text: "<p>Some <font color=\"#c02020\">red</font> words.</p>"),
                ])))
        }
        let colour = try render(job(.general), name: "colour")
        let gray = try render(job(.grayscale), name: "gray")
        #expect(gray.pages == colour.pages && gray.pages > 25)
        let size = { (path: String) in try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 }
        #expect(try size(gray.path) <= 2 * size(colour.path))
        #expect(try images(gray.path).isEmpty)
        for page in [1, gray.pages] { #expect(colourful(try PDFTools.pixels(gray.path, page: page, dpi: 30).rgb) == 0) }
    }

    @Test func overlayDarkensThePageCentre() throws {
        func centreDarkness(_ overlay: String?) throws -> Int {
            let job = PrintJob(info: PrintInfo(jobName: "o"), content: .renderer(PageRenderer(overlay: overlay, formatters: [
                PrintFormatter(kind: .text, text: "x"),
            ])))
            let path = try render(job, name: "overlay-\(overlay ?? "none")").path
            let (width, height, rgb) = try PDFTools.pixels(path, dpi: 20)
            var dark = 0
            for y in (height / 3)..<(2 * height / 3) {
                for x in (width / 4)..<(3 * width / 4) where rgb[(y * width + x) * 3] < 240 { dark += 1 }
            }
            return dark
        }
        #expect(try centreDarkness(nil) == 0)
        let withOverlay = try centreDarkness("CONFIDENTIAL")
        #expect(withOverlay > 50)
    }

    @Test func wideImageTurnsTheJobLandscapeUnlessChosen() throws {
        let wide = ImageFixtures.png(width: 300, height: 100, in: directory)
        let auto = try render(PrintJob(info: PrintInfo(jobName: "i"), content: .items([0])), files: [0: wide], name: "auto")
        var size = try PDFTools.pageSize(auto.path)
        #expect(size.width > size.height)
        let chosen = try render(PrintJob(info: PrintInfo(jobName: "i", orientation: .portrait), content: .items([0])), files: [0: wide], name: "chosen")
        size = try PDFTools.pageSize(chosen.path)
        #expect(size.width < size.height)
    }

    @Test func itemsConcatenatePDFPagesAndImagesAsVectors() throws {
        let source = try render(SampleJobs.text("Vector page one\u{0C}Vector page two"), name: "source").path
        let jpeg = try ImageFixtures.jpeg(from: source, in: directory)
        let (path, pages) = try render(PrintJob(info: PrintInfo(jobName: "c"), content: .items([0, 1])), files: [0: source, 1: jpeg], name: "concat")
        #expect(pages == 3)
        #expect(try PDFTools.pages(path) == 3)
        #expect(try PDFTools.text(path, page: 2).contains("Vector page two"))
        // The JPEG is embedded as it is (DCT), not re-encoded.
        #expect(try PDFTools.run(["pdfimages", "-list", path]).contains("jpeg"))
    }

    @Test func pdfFormatterPlacesPagesInTheContentRect() throws {
        let source = try render(SampleJobs.text("Embedded page"), name: "embedded").path
        let job = PrintJob(info: PrintInfo(jobName: "e"), content: .renderer(PageRenderer(
            footerHeight: 20, footer: HeaderFooter(right: "{page}/{pages}"),
            formatters: [PrintFormatter(kind: .text, text: "Cover"), PrintFormatter(kind: .pdf, startPage: 1, attachment: 0)])))
        let (path, pages) = try render(job, files: [0: source])
        #expect(pages == 2)
        let text = try PDFTools.text(path, page: 2)
        #expect(text.contains("Embedded page") && text.contains("2/2"))
    }

    // MARK: - Bad input: a clear error, exit 65

    @Test func badInputIsRefusedAtComposeTime() throws {
        let gif = directory + "/picture.gif"
        try Data("GIF89a\u{01}\u{00}\u{01}\u{00}".utf8).write(to: URL(fileURLWithPath: gif))
        let corrupt = directory + "/broken.pdf"
        try Data("%PDF-1.7\ngarbage without xref".utf8).write(to: URL(fileURLWithPath: corrupt))
        let notAFont = directory + "/font.otf"
        try Data("this is not a font".utf8).write(to: URL(fileURLWithPath: notAFont))
        let jobs: [(PrintJob, [Int: String])] = [
            (PrintJob(info: PrintInfo(jobName: "b"), content: .items([0])), [0: gif]),
            (PrintJob(info: PrintInfo(jobName: "b"), content: .renderer(PageRenderer(formatters: [PrintFormatter(kind: .image, attachment: 0)]))), [0: gif]),
            (PrintJob(info: PrintInfo(jobName: "b"), content: .items([0])), [0: corrupt]),
            (SampleJobs.text("x", fontAttachment: 0), [0: notAFont]),
        ]
        for (job, files) in jobs {
            #expect(throws: OutboxError.self) { try PrintPreview.check(job: job, files: files, config: PrintConfig()) }
            do {
                _ = try PrintPreview.render(job: job, files: files, config: PrintConfig(), out: directory + "/never.pdf")
            } catch {
                #expect(error.code == .dataError)
            }
            #expect(!FileManager.default.fileExists(atPath: directory + "/never.pdf"))
        }
    }
}

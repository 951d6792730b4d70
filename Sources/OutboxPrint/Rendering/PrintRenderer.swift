import Foundation
import OutboxModel

/// Renders a print job to a PDF file with Pango (shaping, line breaking, bidi, CJK), Cairo
/// (PDF output, font subsetting incl. CFF/OTF) and poppler (PDF pages, as vectors).
///
/// Two passes: the layout pass places everything and so knows the page count (for `{pages}`
/// and page ranges) before the draw pass writes the selected pages one by one.
public struct PrintRenderer {
    public var job: PrintJob
    public var defaults: PrintDefaults
    /// What `{date}` shows.
    public var date: Date
    /// How much plain text the layout pass may keep captured for the draw pass; with 0 every
    /// block is drawn from a Pango layout made again, which tests compare against.
    var captureBudget = KeptBlocks<CapturedBlock>.captureBudget

    public init(job: PrintJob, defaults: PrintDefaults = PrintDefaults(), date: Date = Date()) {
        self.job = job
        self.defaults = defaults
        self.date = date
    }

    /// Checks the job and lays it out without writing anything; returns the number of pages
    /// `render` would write. This is the compose-time check.
    public func pageCount(files: any PrintFileResolver) throws(PrintRenderError) -> Int {
        try Self.mapped {
            let composition = try Composition(job: job, defaults: defaults, files: files)
            let session = try RenderSession(path: nil, firstPage: composition.paper, fontFiles: composition.fontFiles)
            defer { session.abandon() }
            let layout = try PageLayoutBuilder(composition, session: session).build()
            return try composition.selection(of: layout).count
        }
    }

    /// Writes the PDF to `path` (replacing it) and returns the number of pages written. On
    /// failure nothing is left at `path`.
    public func render(files: any PrintFileResolver, to path: String) throws(PrintRenderError) -> Int {
        try Self.mapped {
            let composition = try Composition(job: job, defaults: defaults, files: files)
            let session = try RenderSession(path: path, firstPage: composition.paper, fontFiles: composition.fontFiles)
            do {
                if composition.canRenderInOnePass {
                    // Each page is drawn as soon as it is laid out, reusing its text layouts:
                    // Pango shapes every line once, and memory holds about one page.
                    let laidOut = KeptBlocks<LaidOutBlock>(budget: .max)
                    let drawer = PageDrawer(composition, session: session, layout: PageLayout(), laidOut: laidOut, date: date)
                    let builder = PageLayoutBuilder(composition, session: session, cache: laidOut)
                    builder.onPageFinished = { page, index in try drawer.draw(page, index: index) }
                    let layout = try builder.build()
                    try session.close()
                    return layout.pages.count
                }
                let laidOut = KeptBlocks<LaidOutBlock>(budget: KeptBlocks<LaidOutBlock>.layoutBudget), captured = KeptBlocks<CapturedBlock>(budget: captureBudget)
                let layout = try PageLayoutBuilder(composition, session: session, cache: laidOut, captured: captured).build()
                let selected = try composition.selection(of: layout)
                try PageDrawer(composition, session: session, layout: layout, laidOut: laidOut, captured: captured, date: date).draw(selected)
                try session.close()
                return selected.count
            } catch {
                session.abandon()
                unlink(path)
                throw error
            }
        }
    }

    private static func mapped<T>(_ body: () throws -> T) throws(PrintRenderError) -> T {
        do {
            return try body()
        } catch let error as PrintRenderError {
            throw error
        } catch {
            throw PrintRenderError(.io, "\(error)")
        }
    }
}

import Foundation
import OutboxEngine
import OutboxModel

/// The file a print sink sends: the PDF kept from an earlier attempt (so a resubmission
/// prints exactly the same pages), a single item as it is, or a fresh rendering.
struct PrintDocument {
    var path: String
    var mimeType: String
    /// Known when we rendered or counted it.
    var pages: Int?
    /// The job's page ranges are already applied (our renderer did it).
    var rangesApplied: Bool
    /// Rendered just now: the sink hands it back as `keep` with role `rendered`.
    var freshlyRendered: Bool

    /// Picks or makes the document for `delivery`. `passThrough` lists the item types the
    /// sink can send unchanged when the job is a single item; `renderPath` is where a new
    /// rendering goes.
    static func prepare(_ delivery: Delivery, job: PrintJob, defaults: PrintDefaults, files: StoredPrintFiles,
                        passThrough: Set<DocumentType>, renderPath: String) throws -> PrintDocument {
        if let kept = delivery.attachments.last(where: { $0.role == .rendered }) {
            let path = try files.path(forAttachment: kept.position)
            return PrintDocument(path: path, mimeType: "application/pdf", pages: try? PopplerDocument(path: path, name: kept.filename).pageCount,
                                 rangesApplied: true, freshlyRendered: false)
        }
        if case .items(let positions) = job.content, positions.count == 1 {
            let path = try files.path(forAttachment: positions[0])
            let name = files.displayName(forAttachment: positions[0])
            if let type = DocumentType.sniff(try RasterImage.head(path, name: name, count: 4096)), passThrough.contains(type) {
                var pages: Int?
                switch type {
                // Opened to refuse a corrupt PDF before it reaches the printer.
                case .pdf: pages = try PopplerDocument(path: path, name: name).pageCount
                case .png, .jpeg: _ = try RasterImage(path: path, name: name); pages = 1
                case .text: pages = nil
                }
                return PrintDocument(path: path, mimeType: type.mimeType, pages: pages, rangesApplied: false, freshlyRendered: false)
            }
        }
        let renderer = PrintRenderer(job: job, defaults: defaults, date: Timestamp.date(delivery.createdAt))
        let pages = try renderer.render(files: files, to: renderPath)
        return PrintDocument(path: renderPath, mimeType: "application/pdf", pages: pages, rangesApplied: true, freshlyRendered: true)
    }
}

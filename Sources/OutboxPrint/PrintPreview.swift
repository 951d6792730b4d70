import Foundation
import OutboxModel

/// `outbox render … --out FILE.pdf`: the seeds' Printer Simulator. Renders a job from files on
/// disk exactly as the PDF sink would, and queues nothing.
public enum PrintPreview {
    /// Writes the PDF to `out` and returns its page count. `files` maps the job's attachment
    /// positions to the user's file paths.
    public static func render(job: PrintJob, files: [Int: String], config: PrintConfig, out: String) throws(OutboxError) -> Int {
        do {
            return try PrintRenderer(job: job, defaults: config.defaults).render(files: LocalPrintFiles(files), to: out)
        } catch {
            throw error.outboxError
        }
    }

    /// The compose-time check of `outbox print`: lays the job out without writing anything, so
    /// an unknown image format, a corrupt PDF or a font file that is not a font is refused
    /// (exit 65) before anything is stored. Returns the page count.
    public static func check(job: PrintJob, files: [Int: String], config: PrintConfig) throws(OutboxError) -> Int {
        do {
            return try PrintRenderer(job: job, defaults: config.defaults).pageCount(files: LocalPrintFiles(files))
        } catch {
            throw error.outboxError
        }
    }
}

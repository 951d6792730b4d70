import Foundation
import OutboxEngine
import OutboxModel

/// The `pdf` destination: renders each print job into the configured directory as
/// `<id>-<job name>.pdf`. Written under a temporary name and renamed, so a reader never sees
/// half a file and a retry simply replaces it.
public struct PDFSink: Sink {
    public let config: PrintConfig

    public init(config: PrintConfig) { self.config = config }

    public var channel: Channel { .print }
    public var name: String { "pdf" }
    public var directory: String { Paths.expand(config.pdfDirectory) }
    public var destinationDescription: String { "rendering PDFs into \(Paths.abbreviate(directory))" }

    public func probe() -> SinkProbe {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            return isDirectory.boolValue && FileManager.default.isWritableFile(atPath: directory)
                ? .reachable(detail: destinationDescription)
                : .unreachable(SinkError(.offline, code: "pdf directory", "\(directory) is not a writable directory"))
        }
        return .reachable(detail: destinationDescription + " (created on first job)")
    }

    public func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt {
        guard case .print(let job) = delivery.content else {
            throw SinkError(.permanent, code: "pdf wrong-channel", "the pdf sink only takes print jobs, not \(delivery.channel.rawValue)")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw SinkError(.transient, code: "pdf mkdir", "cannot create \(directory): \(error.localizedDescription)")
        }
        let fileName = JobFileName.make(messageID: delivery.messageID, jobName: job.info.jobName)
        let finalPath = directory + "/" + fileName
        let temporaryPath = directory + "/.\(delivery.messageID)-\(UUID().uuidString).pdf.part"
        let files: StoredPrintFiles
        do { files = try StoredPrintFiles(delivery: delivery) } catch { throw Self.sinkError(error) }
        defer { files.removeAll() }
        do {
            let document = try PrintDocument.prepare(delivery, job: job, defaults: config.defaults, files: files,
                                                     passThrough: job.info.pageRanges == nil ? [.pdf] : [], renderPath: temporaryPath)
            if document.path != temporaryPath {
                try Self.copy(document.path, to: temporaryPath)
            }
            guard rename(temporaryPath, finalPath) == 0 else {
                throw PrintRenderError(.io, "cannot rename to \(finalPath): \(String(cString: strerror(errno)))")
            }
            let sha256 = try FileDigest.sha256(path: finalPath)
            let pages = document.pages ?? (try? PopplerDocument(path: finalPath, name: fileName).pageCount)
            Log.shared.info("print.pdf.written", id: delivery.messageID, channel: .print,
                            ["path": finalPath, "pages": pages.map(String.init) ?? "?"])
            return DeliveryReceipt(
                outcome: .sent, remoteID: finalPath, code: "pdf written",
                detail: "wrote \(pages.map { "\($0) page\($0 == 1 ? "" : "s")" } ?? "the PDF") to \(finalPath)",
                printResult: PrintResult(printer: "pdf", pages: pages, pdfPath: finalPath, pdfSHA256: sha256),
                keep: document.freshlyRendered ? KeptFile(path: finalPath, role: .rendered, filename: fileName, mimeType: "application/pdf") : nil)
        } catch {
            unlink(temporaryPath)
            throw Self.sinkError(error)
        }
    }

    static func sinkError(_ error: any Error) -> SinkError {
        if let error = error as? PrintRenderError { return error.sinkError }
        if let error = error as? SinkError { return error }
        return SinkError(.transient, code: "pdf io", "\(error)")
    }

    /// Streams a file to `destination` (attachments can be large).
    static func copy(_ source: String, to destination: String) throws {
        guard let input = fopen(source, "rb") else { throw PrintRenderError(.io, "cannot read \(source): \(String(cString: strerror(errno)))") }
        defer { fclose(input) }
        guard let output = fopen(destination, "wb") else { throw PrintRenderError(.io, "cannot write \(destination): \(String(cString: strerror(errno)))") }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&buffer, 1, buffer.count, input)
            if count > 0, fwrite(buffer, 1, count, output) != count {
                fclose(output)
                throw PrintRenderError(.io, "cannot write \(destination): \(String(cString: strerror(errno)))")
            }
            if count < buffer.count { break }
        }
        guard fclose(output) == 0 else { throw PrintRenderError(.io, "cannot write \(destination): \(String(cString: strerror(errno)))") }
    }
}

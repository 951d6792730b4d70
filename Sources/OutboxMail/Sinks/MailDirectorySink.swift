import Foundation
import OutboxEngine
import OutboxModel

/// The `directory` mail sink: writes each mail as `<dir>/<messageID>-<uid>.eml`, byte for byte
/// what the SMTP sink would send. It is the default with no SMTP configured, so the tool works
/// on a fresh machine.
///
/// Written with `AtomicFile`: a crash leaves either no file or the whole file. A final file that
/// already exists for the same uid means an earlier attempt got that far, so the delivery is
/// reported sent again (idempotent).
public struct MailDirectorySink: Sink {
    public let channel = Channel.mail
    public let name = "directory"
    public let directory: String
    public let composer: MIMEComposer

    public init(directory: String, composer: MIMEComposer) {
        self.directory = Paths.expand(directory)
        self.composer = composer
    }

    public var destinationDescription: String {
        "capturing to \(Paths.abbreviate(directory)) — no SMTP configured"
    }

    /// The file a delivery is written to.
    public func path(for delivery: Delivery) -> String {
        directory + "/\(delivery.messageID)-\(delivery.uid).eml"
    }

    public func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt {
        let message: ComposedMessage
        do { message = try composer.compose(delivery) } catch {
            throw SinkError(.permanent, code: "mime", error.message)
        }
        let final = path(for: delivery)
        if FileManager.default.fileExists(atPath: final) {
            return receipt(final, size: message.size, again: true)
        }
        try createDirectory()
        let outcome = try AtomicFile.create(path: final, classify: Self.classify) { (fd: Int32) throws(SinkError) in
            let stream = message.open(messageID: delivery.messageID, files: delivery.files)
            defer { stream.close() }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count: Int
                do { count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) } } catch {
                    throw SinkError(.transient, code: "attachment", "cannot read an attachment of the mail: \(error)")
                }
                if count == 0 { break }
                let result = buffer.withUnsafeBytes { raw in
                    Result { () throws(SinkError) in
                        try AtomicFile.writeAll(fd, UnsafeRawBufferPointer(rebasing: raw[0..<count]), classify: Self.classify)
                    }
                }
                try result.get()
            }
        }
        return receipt(final, size: message.size, again: outcome == .alreadyThere)
    }

    /// The directory exists (or can be created) and is writable.
    public func probe() -> SinkProbe {
        do {
            try createDirectory()
            try AtomicFile.checkWritable(directory)
        } catch {
            return .unreachable(error)
        }
        return .reachable(detail: destinationDescription)
    }

    // MARK: - Helpers

    private func receipt(_ path: String, size: Int, again: Bool) -> DeliveryReceipt {
        DeliveryReceipt(outcome: .sent, remoteID: (path as NSString).lastPathComponent, code: "file",
                        detail: again ? "already written to \(path)" : "wrote \(path) (\(size) bytes)")
    }

    private func createDirectory() throws(SinkError) {
        try AtomicFile.ensureDirectory(directory, permissions: 0o700, hint: ": move it or set mail.directory.path")
    }

    /// A full disk may clear up: transient. A directory we may not write to needs the user: the
    /// sink is unavailable (offline), which pauses it without spending attempts.
    static let classify: AtomicFile.Classify = { what, code in
        let reason = String(cString: strerror(code))
        switch code {
        case EACCES, EPERM, EROFS, ENOENT, ENOTDIR:
            return SinkError(.offline, code: "errno \(code)", "\(what): \(reason)")
        default:
            return SinkError(.transient, code: "errno \(code)", "\(what): \(reason)")
        }
    }
}

import Foundation
import OutboxEngine
import OutboxModel

/// The `directory` mail sink: writes each mail as `<dir>/<messageID>-<uid>.eml`, byte for byte
/// what the SMTP sink would send. It is the default with no SMTP configured, so the tool works
/// on a fresh machine.
///
/// A file is written to a temporary name in the same directory, fsynced, then linked to its
/// final name (which fails rather than overwrites) and the directory fsynced: a crash leaves
/// either no file or the whole file. A final file that already exists for the same uid means an
/// earlier attempt got that far, so the delivery is reported sent again (idempotent).
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
        let temporary = directory + "/.\(delivery.messageID)-\(delivery.uid).\(UUID().uuidString.prefix(8)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw fileError("cannot create \(temporary)", errno) }
        var keepTemporary = false
        defer { if !keepTemporary { unlink(temporary) } }
        do {
            defer { close(fd) }
            let stream = message.open(messageID: delivery.messageID, files: delivery.files)
            defer { stream.close() }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count: Int
                do { count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) } } catch {
                    throw SinkError(.transient, code: "attachment", "cannot read an attachment of the mail: \(error)")
                }
                if count == 0 { break }
                var done = 0
                while done < count {
                    let written = buffer[done..<count].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw fileError("cannot write \(temporary)", errno)
                    }
                    done += written
                }
            }
            guard fsync(fd) == 0 else { throw fileError("cannot sync \(temporary)", errno) }
        }
        // link(2) refuses to replace an existing name, unlike rename(2).
        if link(temporary, final) != 0 {
            let code = errno
            if code == EEXIST { return receipt(final, size: message.size, again: true) }
            guard code == EPERM || code == ENOTSUP || code == EOPNOTSUPP else {
                throw fileError("cannot move the mail to \(final)", code)
            }
            // A file system without hard links: rename, having checked the name is free.
            guard rename(temporary, final) == 0 else { throw fileError("cannot move the mail to \(final)", errno) }
            keepTemporary = true
        }
        syncDirectory()
        return receipt(final, size: message.size, again: false)
    }

    /// The directory exists (or can be created) and is writable.
    public func probe() -> SinkProbe {
        do { try createDirectory() } catch { return .unreachable(error) }
        guard access(directory, W_OK) == 0 else {
            return .unreachable(fileError("cannot write to \(Paths.abbreviate(directory))", errno))
        }
        return .reachable(detail: destinationDescription)
    }

    // MARK: - Helpers

    private func receipt(_ path: String, size: Int, again: Bool) -> DeliveryReceipt {
        DeliveryReceipt(outcome: .sent, remoteID: (path as NSString).lastPathComponent, code: "file",
                        detail: again ? "already written to \(path)" : "wrote \(path) (\(size) bytes)")
    }

    private func createDirectory() throws(SinkError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw SinkError(.offline, code: "file", "\(directory) exists but is not a directory: move it or set mail.directory.path")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw SinkError(.offline, code: "file", "cannot create the mail directory \(directory): \(error.localizedDescription)")
        }
    }

    private func syncDirectory() {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// A full disk may clear up: transient. A directory we may not write to needs the user: the
    /// sink is unavailable (offline), which pauses it without spending attempts.
    private func fileError(_ what: String, _ code: Int32) -> SinkError {
        let reason = String(cString: strerror(code))
        switch code {
        case EACCES, EPERM, EROFS, ENOENT, ENOTDIR:
            return SinkError(.offline, code: "errno \(code)", "\(what): \(reason)")
        default:
            return SinkError(.transient, code: "errno \(code)", "\(what): \(reason)")
        }
    }
}

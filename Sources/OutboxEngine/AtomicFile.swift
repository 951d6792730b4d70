import FoundationEssentials
import OutboxModel
#if canImport(Glibc)
import Glibc
#endif

/// Crash-safe creation of the files the directory sinks capture (`.eml`, `.json`): a reader never
/// sees half a file, and an existing file is never replaced.
///
/// The bytes go to a hidden temporary file in the same directory, are fsynced, and are then
/// `link`ed to the final name — unlike `rename`, `link` fails with `EEXIST` instead of replacing,
/// so two workers racing on one message cannot clobber each other (a file system without hard
/// links falls back to `rename` after checking the name is free). The directory is fsynced so
/// the new name survives a power loss.
public enum AtomicFile {
    public enum Outcome: Sendable, Equatable {
        case created
        /// The final name already existed: an earlier attempt got that far.
        case alreadyThere
    }

    /// Turns a failed system call (what was being done, `errno`) into the sink's error class.
    public typealias Classify = @Sendable (_ what: String, _ code: Int32) -> SinkError

    /// Every file-system failure is `offline`: a full or read-only disk will not fix itself per
    /// message, and pausing the sink spends no attempts until the directory is writable again.
    public static let offline: Classify = { what, code in
        SinkError(.offline, code: "errno \(code)", "\(what): \(String(cString: strerror(code)))")
    }

    /// Creates `path` with the bytes `write` puts into the open file descriptor.
    @discardableResult
    public static func create(path: String, classify: Classify = offline,
                              write: (Int32) throws(SinkError) -> Void) throws(SinkError) -> Outcome {
        let directory = Paths.deletingLastComponent(path)
        let temporary = directory + "/.tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-" + Paths.lastComponent(path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw classify("cannot create a file in \(Paths.abbreviate(directory))", errno) }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            defer { close(fd) }
            try write(fd)
            guard fsync(fd) == 0 else { throw classify("cannot sync \(Paths.abbreviate(temporary))", errno) }
        }
        if link(temporary, path) != 0 {
            let code = errno
            if code == EEXIST { return .alreadyThere }
            guard code == EPERM || code == ENOTSUP || code == EOPNOTSUPP else {
                throw classify("cannot create \(Paths.abbreviate(path))", code)
            }
            if FileManager.default.fileExists(atPath: path) { return .alreadyThere }
            guard rename(temporary, path) == 0 else { throw classify("cannot create \(Paths.abbreviate(path))", errno) }
            renamed = true
        }
        try syncDirectory(directory, classify: classify)
        return .created
    }

    /// Creates `path` with `contents`.
    @discardableResult
    public static func create(path: String, contents: Data, classify: Classify = offline) throws(SinkError) -> Outcome {
        try create(path: path, classify: classify) { (fd: Int32) throws(SinkError) in
            // `withUnsafeBytes` rethrows untyped: carry the typed error out in a `Result`.
            let result = contents.withUnsafeBytes { raw in
                Result { () throws(SinkError) in try writeAll(fd, raw, classify: classify) }
            }
            try result.get()
        }
    }

    /// Writes every byte, retrying short writes and `EINTR`.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, classify: Classify = offline) throws(SinkError) {
        var done = 0
        while done < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if written < 0 {
                if errno == EINTR { continue }
                throw classify("cannot write", errno)
            }
            done += written
        }
    }

    /// Creates the directory (and its parents) if needed. `hint` says what to do when a file
    /// stands where the directory should be.
    public static func ensureDirectory(_ directory: String, permissions: Int? = nil, hint: String = "") throws(SinkError) {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory else {
                throw SinkError(.offline, code: "not a directory", "\(Paths.abbreviate(directory)) exists but is not a directory\(hint)")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: permissions.map { [.posixPermissions: $0] })
        } catch {
            throw SinkError(.offline, code: "mkdir", "cannot create the directory \(Paths.abbreviate(directory)): \(ErrorText.describe(error))")
        }
    }

    /// The directory is writable, for a sink's `probe()`.
    public static func checkWritable(_ directory: String) throws(SinkError) {
        guard access(directory, W_OK) == 0 else { throw offline("cannot write to \(Paths.abbreviate(directory))", errno) }
    }

    static func syncDirectory(_ directory: String, classify: Classify) throws(SinkError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw classify("cannot open \(Paths.abbreviate(directory))", errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw classify("cannot fsync \(Paths.abbreviate(directory))", errno) }
    }
}

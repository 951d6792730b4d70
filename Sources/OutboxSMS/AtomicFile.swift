import Foundation
import OutboxEngine
import OutboxModel
#if canImport(Glibc)
import Glibc
#endif

/// Crash-safe creation of capture files: a reader never sees half a file, and an existing file
/// is never replaced.
///
/// The bytes go to a hidden temporary file in the same directory, are fsynced, and are then
/// `link`ed to the final name — unlike `rename`, `link` fails with `EEXIST` instead of replacing,
/// so two workers racing on one message cannot clobber each other. The directory is fsynced so
/// the new name survives a power loss.
enum AtomicFile {
    /// Creates `path` with `contents`; an existing `path` is left alone and counts as success.
    static func create(path: String, contents: Data) throws(SinkError) {
        let directory = (path as NSString).deletingLastPathComponent
        try ensureDirectory(directory)
        let temp = directory + "/.tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-" + (path as NSString).lastPathComponent
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("cannot create a file in", directory) }
        var written = 0
        let ok: Bool = contents.withUnsafeBytes { raw in
            while written < raw.count {
                let n = write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 { if errno == EINTR { continue }; return false }
                written += n
            }
            return fsync(fd) == 0
        }
        let savedErrno = errno
        guard close(fd) == 0, ok else {
            errno = ok ? errno : savedErrno
            let error = failure("cannot write", temp)
            unlink(temp)
            throw error
        }
        if link(temp, path) != 0 {
            let linkErrno = errno
            unlink(temp)
            if linkErrno == EEXIST { return }
            errno = linkErrno
            throw failure("cannot create", path)
        }
        unlink(temp)
        try syncDirectory(directory)
    }

    /// Creates the directory (and its parents) if needed.
    static func ensureDirectory(_ directory: String) throws(SinkError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw SinkError(.offline, code: "not a directory", "\(Paths.abbreviate(directory)) exists but is not a directory")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw SinkError(.offline, code: "mkdir", "cannot create the directory \(Paths.abbreviate(directory)): \(error.localizedDescription)")
        }
    }

    static func syncDirectory(_ directory: String) throws(SinkError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot open", directory) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure("cannot fsync", directory) }
    }

    /// A full or read-only disk will not fix itself per message: `offline` pauses the sink
    /// without spending attempts until the directory is writable again.
    private static func failure(_ what: String, _ path: String) -> SinkError {
        let code = errno
        return SinkError(.offline, code: "errno \(code)", "\(what) \(Paths.abbreviate(path)): \(String(cString: strerror(code)))")
    }
}

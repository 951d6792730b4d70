import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor with the few `FileHandle` calls the front end makes (`FileHandle` lives in
/// full Foundation, which costs every `outbox` process about 4 ms to load). Errors are
/// `CocoaError`s with the codes `FileHandle` uses, so `ErrorText` words them the same.
public final class SystemFile {
    public let descriptor: Int32
    private let owned: Bool
    private var isOpen = true

    private init(descriptor: Int32, owned: Bool) {
        self.descriptor = descriptor
        self.owned = owned
    }

    deinit { if owned && isOpen { _ = Glibc.close(descriptor) } }

    /// The standard streams, borrowed (closing one does not close the descriptor).
    public static var standardInput: SystemFile { SystemFile(descriptor: STDIN_FILENO, owned: false) }
    public static var standardOutput: SystemFile { SystemFile(descriptor: STDOUT_FILENO, owned: false) }
    public static var standardError: SystemFile { SystemFile(descriptor: STDERR_FILENO, owned: false) }

    /// Opens for reading; `nil` when the file cannot be opened (as `FileHandle(forReadingAtPath:)`).
    public convenience init?(forReadingAtPath path: String) {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        self.init(descriptor: fd, owned: true)
    }

    /// Opens an existing file for writing, from its start, without truncating (as
    /// `FileHandle(forWritingAtPath:)`); `nil` when it cannot be opened.
    public convenience init?(forWritingAtPath path: String) {
        let fd = Glibc.open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        self.init(descriptor: fd, owned: true)
    }

    /// Creates (or truncates) `path` and opens it for writing; `nil` when that fails (as
    /// `FileManager.createFile(atPath:contents: nil)` followed by `FileHandle(forWritingAtPath:)`).
    public convenience init?(creatingAtPath path: String) {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { return nil }
        self.init(descriptor: fd, owned: true)
    }

    /// Up to `count` bytes; `nil` at the end of the file.
    public func read(upToCount count: Int) throws -> Data? {
        var data = Data(count: count)
        var filled = 0
        try data.withUnsafeMutableBytes { buffer in
            while filled < count {
                let n = Glibc.read(descriptor, buffer.baseAddress! + filled, count - filled)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw Self.error(errno, reading: true)
                }
                if n == 0 { break }
                filled += n
            }
        }
        data.count = filled
        return filled == 0 && count > 0 ? nil : data
    }

    /// Everything up to the end of the file.
    public func readToEnd() throws -> Data {
        var data = Data()
        while true {
            guard let chunk = try read(upToCount: 1 << 16) else { return data }
            data.append(chunk)
        }
    }

    /// Writes all of `bytes`.
    public func write<Bytes: Sequence>(contentsOf bytes: Bytes) throws where Bytes.Element == UInt8 {
        let array = Array(bytes)
        try array.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let n = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw Self.error(errno, reading: false)
                }
                written += n
            }
        }
    }

    /// Writes a string's UTF-8, ignoring failures (for stdout and stderr, as
    /// `FileHandle.write(_:)` is used there).
    public func write(_ text: String) {
        try? write(contentsOf: text.utf8)
    }

    public func close() throws {
        guard isOpen else { return }
        isOpen = false
        if owned && Glibc.close(descriptor) != 0 && errno != EINTR { throw Self.error(errno, reading: false) }
    }

    /// The Cocoa error Foundation reports for an `errno` from reading or writing.
    static func error(_ code: Int32, reading: Bool) -> CocoaError {
        let cocoa: Int
        switch (code, reading) {
        case (ENOENT, true): cocoa = 260
        case (EPERM, true), (EACCES, true): cocoa = 257
        case (ENAMETOOLONG, true): cocoa = 258
        case (_, true): cocoa = 256
        case (ENOENT, false): cocoa = 4
        case (EPERM, false), (EACCES, false): cocoa = 513
        case (ENAMETOOLONG, false): cocoa = 514
        case (ENOSPC, false), (EDQUOT, false): cocoa = 640
        case (EROFS, false): cocoa = 642
        case (EEXIST, false): cocoa = 516
        default: cocoa = 512
        }
        var info: [String: Any] = [:]
        if let posix = POSIXErrorCode(rawValue: code) { info["NSUnderlyingError"] = POSIXError(posix) }
        return CocoaError(CocoaError.Code(rawValue: cocoa), userInfo: info)
    }
}

@available(*, unavailable)
extension SystemFile: Sendable {}

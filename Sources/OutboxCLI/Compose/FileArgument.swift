import FoundationEssentials
import OutboxModel

/// A file named on the command line: `FILE[;type=MIME][;name=NAME]`, or `-` for stdin (spooled
/// to a temporary file first so it can be hashed and streamed like any other).
struct FileArgument {
    var path: String
    var filename: String
    var mimeType: String?

    static func parse(_ text: String) throws(OutboxError) -> FileArgument {
        var parts = text.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        var path = parts.removeFirst()
        var mime: String?
        var name: String?
        for part in parts {
            if part.hasPrefix("type=") { mime = String(part.dropFirst(5)) }
            else if part.hasPrefix("name=") { name = String(part.dropFirst(5)) }
            else { throw .usage("'\(text)': after the file name only ;type=MIME and ;name=NAME are understood") }
        }
        if let mime, !mime.contains("/") || mime.contains(where: { $0.isWhitespace || $0 == "\r" || $0 == "\n" }) {
            throw .data("'\(mime)' is not a MIME type (expected type/subtype, e.g. application/pdf)")
        }
        if let name { try HeaderText.checkSafe(name, field: "attachment name") }
        if path == "-" {
            path = try spoolStandardInput()
            return FileArgument(path: path, filename: name ?? "stdin", mimeType: mime)
        }
        path = Paths.expand(path)
        return FileArgument(path: path, filename: name ?? Paths.lastComponent(path), mimeType: mime)
    }

    /// Copies stdin to a temporary file in chunks.
    static func spoolStandardInput() throws(OutboxError) -> String {
        let path = Paths.temporaryDirectory + "outbox-stdin-\(UUID().uuidString)"
        guard let out = SystemFile(creatingAtPath: path) else {
            throw OutboxError(.cantCreate, "cannot create a temporary file for standard input in \(Paths.temporaryDirectory)")
        }
        defer { try? out.close() }
        do {
            while let chunk = try SystemFile.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
                try out.write(contentsOf: chunk)
            }
        } catch {
            throw .io("cannot read standard input: \(ErrorText.describe(error))")
        }
        TemporaryFiles.register(path)
        return path
    }

    /// The first bytes of the file, for sniffing its type.
    static func head(_ path: String, count: Int = 4096) throws(OutboxError) -> [UInt8] {
        let handle = try open(path)
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: count)) ?? Data())
    }

    /// Opens a regular file for reading (`name` is how the user wrote it), or says why not (66).
    static func open(_ path: String, named name: String? = nil) throws(OutboxError) -> SystemFile {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .noInput("cannot read \(name ?? path): no such file")
        }
        guard !isDirectory else { throw .noInput("cannot read \(name ?? path): it is a directory") }
        guard let handle = SystemFile(forReadingAtPath: path) else { throw .noInput("cannot read \(name ?? path): permission denied") }
        return handle
    }

    /// The MIME type: as given, else from the content, else from the extension.
    func resolvedMimeType() throws(OutboxError) -> String {
        if let mimeType { return mimeType }
        if let sniffed = DocumentType.sniff(try Self.head(path)), sniffed != .text { return sniffed.mimeType }
        return MimeTypes.guess(filename: filename)
    }
}

/// Temporary files to remove when the process ends.
enum TemporaryFiles {
    nonisolated(unsafe) static var paths: [String] = []
    static func register(_ path: String) { paths.append(path) }
    static func removeAll() { for path in paths { try? FileManager.default.removeItem(atPath: path) }; paths = [] }
}

import FoundationEssentials
import OutboxModel

/// The lines of an `import` file: blank lines skipped, numbered, and every error — a bad line
/// or the file failing to read — turned into one that names the line or the file.
struct ImportLineReader {
    private var lines: LineReader
    private let name: String
    private(set) var lineNumber = 0

    init(_ lines: LineReader, name: String) {
        self.lines = lines
        self.name = name
    }

    /// Calls `body` with the next line that is not blank; false after the last line.
    mutating func next(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        while true {
            let found: Bool?
            do {
                found = try lines.next { line -> Bool in
                    lineNumber += 1
                    if line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { return false }
                    do {
                        try body(line)
                    } catch let error as OutboxError {
                        throw OutboxError(error.code == .usage ? .dataError : error.code,
                                          "line \(lineNumber): \(error.message); nothing was imported")
                    }
                    return true
                }
            } catch let error as OutboxError {
                throw error
            } catch {
                throw OutboxError.io("cannot read \(name): \(ErrorText.describe(error)); nothing was imported")
            }
            guard let found else { return false }
            if found { return true }
        }
    }
}

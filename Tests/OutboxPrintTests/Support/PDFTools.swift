import Foundation

/// poppler-utils and friends, run as real processes: the renderer's output is judged by
/// independent tools, never by our own reading of it.
enum PDFTools {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a program from PATH and returns its stdout; throws on a non-zero exit.
    @discardableResult
    static func run(_ arguments: [String], stdin: Data? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        if let stdin {
            let input = Pipe()
            process.standardInput = input
            try process.run()
            input.fileHandleForWriting.write(stdin)
            try input.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: errorData, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func info(_ path: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for line in try run(["pdfinfo", path]).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            result[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return result
    }

    static func pages(_ path: String) throws -> Int { Int(try info(path)["Pages"] ?? "") ?? -1 }

    /// Page size in points of page `page` (1-based).
    static func pageSize(_ path: String, page: Int = 1) throws -> (width: Double, height: Double) {
        let out = try run(["pdfinfo", "-f", "\(page)", "-l", "\(page)", path])
        guard let line = out.split(separator: "\n").first(where: { $0.hasPrefix("Page") && $0.contains("size:") }) else { return (0, 0) }
        let words = line.split(separator: " ")
        guard let x = words.firstIndex(of: "x"), let w = Double(words[x - 1]), let h = Double(words[x + 1]) else { return (0, 0) }
        return (w, h)
    }

    static func text(_ path: String, page: Int? = nil) throws -> String {
        var arguments = ["pdftotext", "-layout"]
        if let page { arguments += ["-f", "\(page)", "-l", "\(page)"] }
        return try run(arguments + [path, "-"])
    }

    struct Word {
        var text: String
        var xMin: Double, yMin: Double, xMax: Double, yMax: Double
        var page: Int
    }

    /// Every word with its box (`pdftotext -bbox`), pages numbered from 1.
    static func words(_ path: String) throws -> [Word] {
        let html = try run(["pdftotext", "-bbox", path, "-"])
        var words: [Word] = []
        var page = 0
        for line in html.split(separator: "\n") {
            if line.contains("<page ") { page += 1; continue }
            guard line.contains("<word ") else { continue }
            func value(_ key: String) -> Double {
                guard let range = line.range(of: key + "=\"") else { return 0 }
                return Double(line[range.upperBound...].prefix { $0 != "\"" }) ?? 0
            }
            let text = line.split(separator: ">", maxSplits: 1).last.map { String($0.prefix { $0 != "<" }) } ?? ""
            words.append(Word(text: text, xMin: value("xMin"), yMin: value("yMin"), xMax: value("xMax"), yMax: value("yMax"), page: page))
        }
        return words
    }

    /// `pdffonts` rows: name, type, embedded, subset.
    static func fonts(_ path: String) throws -> [(name: String, type: String, embedded: Bool, subset: Bool)] {
        let lines = try run(["pdffonts", path]).split(separator: "\n").dropFirst(2)
        return lines.map { line in
            let columns = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            // name type [type2] encoding emb sub uni object ID
            let count = columns.count
            let embedded = count >= 6 && columns[count - 5] == "yes"
            let subset = count >= 6 && columns[count - 4] == "yes"
            let type = columns.count > 2 ? columns[1...(count - 7)].joined(separator: " ") : ""
            return (columns.first ?? "", type, embedded, subset)
        }
    }

    /// RGB pixels of page `page` at `dpi` (`pdftoppm`), as (width, height, bytes).
    static func pixels(_ path: String, page: Int = 1, dpi: Int = 20) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ppm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let prefix = directory.appendingPathComponent("p").path
        try run(["pdftoppm", "-r", "\(dpi)", "-f", "\(page)", "-l", "\(page)", "-singlefile", path, prefix])
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: prefix + ".ppm")))
        // P6\n<w> <h>\n255\n<bytes>
        var fields: [String] = []
        var index = 0
        while fields.count < 4 {
            var token = ""
            while index < data.count, data[index] == 0x20 || data[index] == 0x0A { index += 1 }
            while index < data.count, data[index] != 0x20, data[index] != 0x0A { token.append(Character(UnicodeScalar(data[index]))); index += 1 }
            fields.append(token)
        }
        index += 1
        return (Int(fields[1]) ?? 0, Int(fields[2]) ?? 0, Array(data[index...]))
    }

    static func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-print-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}

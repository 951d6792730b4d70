import Foundation

/// Helpers shared by the mail tests' server fixtures: where the Python scripts live, temporary
/// directories, a self-signed certificate, and Python's `email` package as an independent
/// parser of what we sent. Ports and waiting are `LoopbackPort` and `waitUntil`; the servers
/// run as `FixtureProcess`es.
public enum SMTPFixtures {
    /// Debian's python3, which sees `python3-aiosmtpd` (a pyenv python on PATH may not).
    public static let python = "/usr/bin/python3"

    /// `Tests/Fixtures/smtp`, found from this source file.
    public static var scriptsDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/smtp").path
    }

    /// A fresh directory under the system temp dir; the caller removes it.
    public static func temporaryDirectory(_ label: String) throws -> String {
        let path = NSTemporaryDirectory() + "outbox-\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs a program to completion; returns its exit status and standard output.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// Parses saved messages with Python's `email` package (`inspect_mail.py`).
    public static func inspect(_ paths: [String]) throws -> [InspectedMail] {
        let (status, output) = try run(python, [scriptsDirectory + "/inspect_mail.py"] + paths)
        guard status == 0 else { throw FixtureError("inspect_mail.py exited with \(status)") }
        return try JSONDecoder().decode([InspectedMail].self, from: output)
    }

    /// A self-signed certificate for localhost and 127.0.0.1, written as `cert.pem`/`key.pem`.
    public static func makeCertificate(in directory: String) throws -> (cert: String, key: String) {
        let cert = directory + "/cert.pem", key = directory + "/key.pem"
        let (status, _) = try run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "30",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ])
        guard status == 0 else { throw FixtureError("openssl req exited with \(status)") }
        return (cert, key)
    }
}

/// What Python's `email` package saw in a message.
public struct InspectedMail: Decodable, Sendable {
    public struct Part: Decodable, Sendable {
        public let content_type: String
        public let filename: String?
        public let disposition: String?
        public let transfer_encoding: String?
        public let sha256: String
        public let size: Int
        public let text: String?
    }
    public let headers: [String: String]
    public let header_names: [String]
    public let defects: [String]
    public let content_type: String
    public let parts: [Part]
    public let max_line: Int
    public let max_header_line: Int
    public let bare_lf: Int
    public let bare_cr: Int
    public let raw_sha256: String
}

public struct FixtureError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

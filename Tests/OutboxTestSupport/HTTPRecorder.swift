import Foundation

/// A python HTTP peer on loopback (`Tests/Fixtures/sms/http_fixture.py`): a Twilio-compatible
/// REST API or a webhook receiver, recording every request it gets.
public final class HTTPRecorder: @unchecked Sendable {
    // @unchecked: immutable after init; the process wrapper is only stopped.
    public enum Mode: String, Sendable { case twilio, webhook }

    /// One recorded request.
    public struct Request: Sendable {
        public let method: String
        public let path: String
        /// Names lowercased.
        public let headers: [String: String]
        public let body: String

        /// The body as form fields (Twilio) — decoded.
        public var form: [String: String] {
            var fields: [String: String] = [:]
            for pair in body.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map {
                    String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
                }
                fields[parts[0]] = parts.count > 1 ? parts[1] : ""
            }
            return fields
        }

        public var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        }
    }

    public let port: UInt16
    public let directory: String
    private let process: FixtureProcess
    private let logFile: String

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public init(mode: Mode, auth: String? = nil) throws {
        directory = NSTemporaryDirectory() + "outbox-http-\(mode.rawValue)-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        logFile = directory + "/requests.jsonl"
        let portFile = directory + "/port"
        var arguments = [Self.script, "--mode", mode.rawValue, "--log", logFile, "--port-file", portFile]
        if let auth { arguments += ["--auth", auth] }
        process = try FixtureProcess(name: "http-\(mode.rawValue)", executable: SMTPFixtures.python, arguments: arguments,
                                    logPath: directory + "/server.log")
        guard waitUntil(10, { FileManager.default.fileExists(atPath: portFile) }),
              let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = UInt16(text) else {
            process.stop()
            throw FixtureProcess.StartupError("the python \(mode.rawValue) fixture did not start: \(process.output)")
        }
        self.port = port
    }

    /// Every request so far, oldest first.
    public var requests: [Request] {
        guard let text = try? String(contentsOfFile: logFile, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Request(method: object["method"] as? String ?? "", path: object["path"] as? String ?? "",
                           headers: object["headers"] as? [String: String] ?? [:], body: object["body"] as? String ?? "")
        }
    }

    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { process.stop(grace: 1) }

    static var script: String {
        // Tests/OutboxTestSupport/HTTPRecorder.swift → Tests/Fixtures/sms/http_fixture.py
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/sms/http_fixture.py").path
    }
}

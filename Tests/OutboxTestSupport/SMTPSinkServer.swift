import Foundation

/// Postfix's `smtp-sink` for tests: a fast SMTP server that accepts and discards mail, with
/// fault injection (`-f RCPT`: 5xx at RCPT; `-r MAIL -b '451 …'`: 4xx; `-q .`: drop after the
/// message; `-Q CMD`: 421 and hang up). Runs on a free loopback port as a `FixtureProcess`, its
/// output logged in a temporary directory; `stop()` ends it and removes the directory.
public final class SMTPSinkServer {
    public static let executable = "/usr/sbin/smtp-sink"

    public let port: Int
    public let directory: String
    private let process: FixtureProcess

    /// `arguments` are extra smtp-sink options placed before the address, e.g. `["-f", "RCPT"]`.
    public init(_ arguments: [String] = [], port: Int? = nil) throws {
        let port = port ?? LoopbackPort.free()
        self.port = port
        directory = try SMTPFixtures.temporaryDirectory("smtp-sink")
        // -u is required as root; 128 is the listen backlog.
        process = try FixtureProcess(name: "smtp-sink", executable: Self.executable,
                                     arguments: ["-4", "-u", "nobody"] + arguments + ["127.0.0.1:\(port)", "128"],
                                     logPath: directory + "/smtp-sink.log")
        guard waitUntil(10, { LoopbackPort.isListening(port) || !process.isRunning }), process.isRunning else {
            let log = process.output
            stop()
            throw FixtureError("smtp-sink did not start on port \(port): \(log)")
        }
    }

    public var url: String { "smtp://127.0.0.1:\(port)" }

    /// Stops the server (SIGTERM, SIGKILL after a deadline, reaped) and removes its directory.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }
}

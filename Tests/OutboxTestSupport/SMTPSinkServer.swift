import Foundation

/// Postfix's `smtp-sink` for tests: a fast SMTP server that accepts and discards mail, with
/// fault injection (`-f RCPT`: 5xx at RCPT; `-r MAIL -b '451 …'`: 4xx; `-q .`: drop after the
/// message; `-Q CMD`: 421 and hang up). Runs on a free loopback port; `stop()` ends it.
public final class SMTPSinkServer {
    public static let executable = "/usr/sbin/smtp-sink"

    public let port: Int
    private let process = Process()

    /// `arguments` are extra smtp-sink options placed before the address, e.g. `["-f", "RCPT"]`.
    public init(_ arguments: [String] = [], port: Int? = nil) throws {
        self.port = port ?? SMTPFixtures.freePort()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        // -u is required as root; 128 is the listen backlog.
        process.arguments = ["-4", "-u", "nobody"] + arguments + ["127.0.0.1:\(self.port)", "128"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard SMTPFixtures.wait(seconds: 10, until: { SMTPFixtures.isListening(port: self.port) || !process.isRunning }),
              process.isRunning else {
            stop()
            throw FixtureError("smtp-sink did not start on port \(self.port)")
        }
    }

    public var url: String { "smtp://127.0.0.1:\(port)" }

    public func stop() {
        SMTPFixtures.stop(process)
    }

    deinit { stop() }
}

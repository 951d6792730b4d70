import Foundation

/// A real SMTP server for tests: Debian's aiosmtpd, run by `Tests/Fixtures/smtp/aiosmtpd_server.py`
/// on a free loopback port in a temporary directory, saving every message it accepts. Runs as a
/// `FixtureProcess` (its output logged in that directory); stop it with `stop()` (it is also
/// stopped on deinit).
public final class SMTPTestServer {
    public struct Options: Sendable {
        /// Require STARTTLS with a self-signed certificate for localhost/127.0.0.1.
        public var startTLS = false
        /// Require AUTH with this user and password.
        public var auth: (user: String, password: String)?
        /// Recipients answered with `550 5.1.1`.
        public var refuse: [String] = []
        /// Save the message, then drop the connection without replying to its end.
        public var dropAfterData = false
        public init(startTLS: Bool = false, auth: (user: String, password: String)? = nil, refuse: [String] = [],
                    dropAfterData: Bool = false) {
            self.startTLS = startTLS
            self.auth = auth
            self.refuse = refuse
            self.dropAfterData = dropAfterData
        }
    }

    public let port: Int
    public let directory: String
    /// Where received messages are saved (`NNNN.eml`, `NNNN.json`).
    public let messagesDirectory: String
    /// The certificate to give as `ca_file` when `startTLS` is on.
    public let certificate: String?
    private let process: FixtureProcess

    public init(_ options: Options = Options(), port: Int? = nil) throws {
        self.port = port ?? LoopbackPort.free()
        directory = try SMTPFixtures.temporaryDirectory("aiosmtpd")
        messagesDirectory = directory + "/messages"
        try FileManager.default.createDirectory(atPath: messagesDirectory, withIntermediateDirectories: true)
        let ready = directory + "/ready"
        var arguments = [SMTPFixtures.scriptsDirectory + "/aiosmtpd_server.py", "--port", "\(self.port)",
                         "--dir", messagesDirectory, "--ready-file", ready]
        if options.startTLS {
            let (cert, key) = try SMTPFixtures.makeCertificate(in: directory)
            arguments += ["--cert", cert, "--key", key]
            certificate = cert
        } else {
            certificate = nil
        }
        if let auth = options.auth { arguments += ["--auth", "\(auth.user):\(auth.password)"] }
        for address in options.refuse { arguments += ["--refuse", address] }
        if options.dropAfterData { arguments.append("--drop-after-data") }
        process = try FixtureProcess(name: "aiosmtpd", executable: SMTPFixtures.python, arguments: arguments,
                                     logPath: directory + "/server.log")
        guard waitUntil(10, { FileManager.default.fileExists(atPath: ready) || !process.isRunning }),
              process.isRunning else {
            let log = process.output
            stop()
            throw FixtureError("aiosmtpd did not start on port \(self.port): \(log)")
        }
    }

    /// Paths of the saved messages, oldest first.
    public var messages: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: messagesDirectory)) ?? []
        return names.filter { $0.hasSuffix(".eml") }.sorted().map { messagesDirectory + "/" + $0 }
    }

    /// The envelope of a saved message: `MAIL FROM` and the accepted `RCPT TO`s.
    public func envelope(of message: String) throws -> (from: String, recipients: [String]) {
        let data = try Data(contentsOf: URL(fileURLWithPath: message.replacingOccurrences(of: ".eml", with: ".json")))
        struct Envelope: Decodable { let mail_from: String; let rcpt_tos: [String] }
        let envelope = try JSONDecoder().decode(Envelope.self, from: data)
        return (envelope.mail_from, envelope.rcpt_tos)
    }

    /// Waits until at least `count` messages are saved.
    public func waitForMessages(_ count: Int, seconds: Double = 10) -> Bool {
        waitUntil(seconds) { messages.count >= count }
    }

    public var url: String { "smtp://127.0.0.1:\(port)" }

    /// Stops the server (SIGTERM, SIGKILL after a deadline, reaped) and removes its directory.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }
}

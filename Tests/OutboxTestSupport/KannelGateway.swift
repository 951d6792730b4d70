import Foundation

/// A private Kannel on loopback: `bearerbox`, Kannel's `fakesmsc` as the SMS centre, and
/// `smsbox` serving sendsms, all on free ports with config and logs in a temporary directory.
///
/// fakesmsc logs each message it receives; `received` reads them back (UCS-2 texts decoded),
/// so a test checks what actually reached the "phone network".
public final class KannelGateway: @unchecked Sendable {
    // @unchecked: the process list is only touched by the test that owns the fixture.
    public let directory: String
    public let adminPort = LoopbackPort.free()
    public let smsboxPort = LoopbackPort.free()
    public let smscPort = LoopbackPort.free()
    public let sendsmsPort = LoopbackPort.free()
    public let username = "outbox"
    public let password = "kannel-test-secret"
    public let globalSender = "12345"
    private var bearerbox: FixtureProcess?
    private var fakesmsc: FixtureProcess?
    private var smsbox: FixtureProcess?

    public var sendsmsURL: String { "http://127.0.0.1:\(sendsmsPort)/cgi-bin/sendsms" }
    var configPath: String { directory + "/kannel.conf" }

    public init() throws {
        directory = NSTemporaryDirectory() + "outbox-kannel-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        try start()
    }

    /// Starts the three boxes in Kannel's order and waits until sendsms would deliver at once
    /// (the fake SMSC is online), not merely queue.
    public func start() throws {
        bearerbox = try FixtureProcess(name: "bearerbox", executable: "/usr/sbin/bearerbox", arguments: [configPath],
                                      logPath: directory + "/bearerbox.out")
        guard waitUntil(30, { LoopbackPort.isListening(adminPort) && LoopbackPort.isListening(smscPort) }) else {
            throw FixtureProcess.StartupError("bearerbox did not start: \(bearerbox!.output.suffix(2000))")
        }
        fakesmsc = try FixtureProcess(name: "fakesmsc", executable: "/usr/lib/kannel/test/fakesmsc",
                                     arguments: ["-H", "127.0.0.1", "-r", String(smscPort), "-i", "1", "-m", "0", "999 123 text hello"],
                                     logPath: directory + "/fakesmsc.out")
        guard waitUntil(30, { status().contains("(online") }) else {
            throw FixtureProcess.StartupError("the fake SMSC did not come online: \(status())")
        }
        smsbox = try FixtureProcess(name: "smsbox", executable: "/usr/sbin/smsbox", arguments: [configPath],
                                   logPath: directory + "/smsbox.out")
        // smsbox opens sendsms before it has joined bearerbox, and answers nothing until then.
        guard waitUntil(30, { LoopbackPort.isListening(sendsmsPort) && status().contains("smsbox:") }) else {
            throw FixtureProcess.StartupError("smsbox did not start: \(smsbox!.output.suffix(2000))")
        }
    }

    /// Stops every box (smsbox first, so nothing is accepted that cannot be passed on).
    public func stop() {
        for process in [smsbox, fakesmsc, bearerbox] { process?.stop() }
        smsbox = nil
        fakesmsc = nil
        bearerbox = nil
    }

    /// Stops everything and removes the directory.
    public func tearDown() {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }

    /// bearerbox's plain-text status page.
    public func status() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "--max-time", "2", "http://127.0.0.1:\(adminPort)/status.txt?password=admin-test"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// One message as fakesmsc received it.
    public struct ReceivedMessage: Sendable, Equatable {
        public let from: String
        public let to: String
        /// `text` or `ucs-2`.
        public let coding: String
        public let text: String

        public init(from: String, to: String, coding: String, text: String) {
            self.from = from
            self.to = to
            self.coding = coding
            self.text = text
        }
    }

    /// Every message fakesmsc has logged so far, in order: `Got message N: <from to coding text>`.
    public var received: [ReceivedMessage] {
        let log = (try? String(contentsOfFile: directory + "/fakesmsc.out", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "Got message "), let open = line[start.upperBound...].firstIndex(of: "<"),
                  line.hasSuffix(">") else { return nil }
            let inner = line[line.index(after: open)..<line.index(before: line.endIndex)]
            let parts = inner.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 4 else { return nil }
            let text = parts[2] == "ucs-2" ? Self.decodeUCS2(parts[3]) : parts[3]
            return ReceivedMessage(from: parts[0], to: parts[1], coding: parts[2], text: text)
        }
    }

    /// fakesmsc prints UCS-2 as URL-encoded UTF-16BE bytes.
    static func decodeUCS2(_ escaped: String) -> String {
        var bytes = [UInt8]()
        var i = escaped.utf8.startIndex
        let utf8 = escaped.utf8
        while i < utf8.endIndex {
            let byte = utf8[i]
            if byte == UInt8(ascii: "%"), let end = utf8.index(i, offsetBy: 3, limitedBy: utf8.endIndex),
               let value = UInt8(String(decoding: utf8[utf8.index(after: i)..<end], as: UTF8.self), radix: 16) {
                bytes.append(value)
                i = end
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                i = utf8.index(after: i)
            }
        }
        var units = [UInt16]()
        for pair in stride(from: 0, to: bytes.count - 1, by: 2) { units.append(UInt16(bytes[pair]) << 8 | UInt16(bytes[pair + 1])) }
        return String(decoding: units, as: UTF16.self)
    }

    private var config: String {
        """
        group = core
        admin-port = \(adminPort)
        admin-interface = 127.0.0.1
        admin-password = admin-test
        status-password = admin-test
        smsbox-port = \(smsboxPort)
        smsbox-interface = 127.0.0.1
        box-allow-ip = 127.0.0.1
        log-file = "\(directory)/bearerbox.log"
        log-level = 1
        access-log = "\(directory)/access.log"
        dlr-storage = internal

        group = smsc
        smsc = fake
        smsc-id = fake
        our-host = 127.0.0.1
        port = \(smscPort)
        connect-allow-ip = 127.0.0.1

        group = smsbox
        bearerbox-host = 127.0.0.1
        bearerbox-port = \(smsboxPort)
        sendsms-port = \(sendsmsPort)
        sendsms-interface = 127.0.0.1
        global-sender = \(globalSender)
        log-file = "\(directory)/smsbox.log"
        log-level = 1

        group = sendsms-user
        username = \(username)
        password = \(password)
        max-messages = 10
        concatenation = true

        group = sms-service
        keyword = default
        text = "ok"

        """
    }
}

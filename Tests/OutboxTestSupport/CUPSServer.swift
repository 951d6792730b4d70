import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private `cupsd` for integration tests: its own ServerRoot, spool, cache, state and logs
/// in a temporary directory, listening on a free loopback port and a Unix socket, stopped by
/// its PID. Queues are added with `lpadmin`; cups-pdf queues write into the temporary
/// directory through `/etc/cups/cups-pdf-NAME.conf` (cups-pdf reads only that place), removed
/// again on `shutdown()`.
public final class CUPSServer: @unchecked Sendable {
    // Used from one test at a time; the lock-free fields are set before the server is shared.
    public let directory: String
    public let socketPath: String
    public let port: Int
    private var cupsd: FixtureProcess?
    private var pdfConfigs: [String] = []
    private let token = String(UUID().uuidString.prefix(8)).lowercased()

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// `Tests/Fixtures/cups`: cupsd's two configuration files, with @DIR@, @PORT@ and @SOCKET@.
    static var templates: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/cups").path
    }

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-cups-\(token)").path
        socketPath = directory + "/cups.sock"
        port = LoopbackPort.free()
        for sub in ["root", "spool", "spool/tmp", "cache", "state", "log"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true)
        }
        let lp = getgrnam("lp")?.pointee.gr_gid ?? 7
        for (sub, mode) in [("spool", 0o710), ("spool/tmp", 0o1770), ("cache", 0o770)] {
            chown(directory + "/" + sub, 0, lp)
            chmod(directory + "/" + sub, mode_t(mode))
        }
        // The configuration Benchmarks/print-cups.sh starts its cupsd with too.
        for name in ["cups-files.conf", "cupsd.conf"] {
            let template = try String(contentsOfFile: Self.templates + "/" + name, encoding: .utf8)
            try template.replacingOccurrences(of: "@DIR@", with: directory)
                .replacingOccurrences(of: "@PORT@", with: String(port))
                .replacingOccurrences(of: "@SOCKET@", with: socketPath)
                .write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
        try start()
    }

    deinit { shutdown() }

    /// Starts (or restarts) cupsd and waits until it answers, with a deadline.
    public func start() throws {
        guard cupsd == nil else { return }
        cupsd = try FixtureProcess(name: "cupsd", executable: "/usr/sbin/cupsd",
                                   arguments: ["-f", "-c", directory + "/cupsd.conf", "-s", directory + "/cups-files.conf"],
                                   logPath: directory + "/log/cupsd.out")
        try waitUntil(seconds: 10, "cupsd to answer on \(socketPath)") {
            (try? self.run(["lpstat", "-h", self.socketPath, "-r"]))?.contains("is running") == true
        }
    }

    /// Stops cupsd (SIGTERM to its PID, SIGKILL after 10 s) and reaps it.
    public func stop() {
        cupsd?.stop(grace: 10)
        cupsd = nil
    }

    /// Stops cupsd, removes the cups-pdf configs and the directory.
    public func shutdown() {
        stop()
        for file in pdfConfigs { unlink(file) }
        pdfConfigs = []
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A cups-pdf queue; returns the directory its PDFs land in.
    @discardableResult
    public func addPDFQueue(_ name: String) throws -> String {
        let device = "ob\(token)\(name.lowercased().filter { $0.isLetter || $0.isNumber })"
        let out = directory + "/out-" + name
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let config = "/etc/cups/cups-pdf-\(device).conf"
        try "Out \(out)\n".write(toFile: config, atomically: true, encoding: .utf8)
        pdfConfigs.append(config)
        try lpadmin(["-p", name, "-v", "cups-pdf:/\(device)", "-P", "/usr/share/ppd/cups-pdf/CUPS-PDF_opt.ppd", "-E"])
        return out
    }

    /// A raw queue whose device refuses connections: jobs end `aborted`.
    public func addFailingQueue(_ name: String) throws {
        try lpadmin(["-p", name, "-v", "socket://127.0.0.1:9/?contimeout=1", "-m", "raw", "-E", "-o", "printer-error-policy=abort-job"])
    }

    public func stopPrinter(_ name: String) throws { try run(["cupsdisable", "-h", socketPath, name]) }
    public func startPrinter(_ name: String) throws { try run(["cupsenable", "-h", socketPath, name]) }

    public func lpadmin(_ arguments: [String]) throws { try run(["lpadmin", "-h", socketPath] + arguments) }

    /// PDFs cups-pdf wrote for job `id` (its file names vary; `*job_<id>.pdf` does not).
    public func outputs(in directory: String, job id: Int) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix("job_\(id).pdf") }.map { directory + "/" + $0 }
    }

    /// All attributes of job `id` as `ipptool -tv` prints them (`name (type) = value` lines).
    public func jobAttributes(_ id: Int) throws -> String {
        let test = directory + "/get-job-all.test"
        try """
        { NAME "Get all job attributes" OPERATION Get-Job-Attributes
          GROUP operation-attributes-tag
          ATTR charset attributes-charset utf-8
          ATTR naturalLanguage attributes-natural-language en
          ATTR uri job-uri $uri
          ATTR name requesting-user-name root
          ATTR keyword requested-attributes all
          STATUS successful-ok }

        """.write(toFile: test, atomically: true, encoding: .utf8)
        return try run(["ipptool", "-tv", "ipp://127.0.0.1:\(port)/jobs/\(id)", test])
    }

    /// Polls `condition` until it holds, or throws with the cupsd log when the deadline passes.
    public func waitUntil(seconds: Double, _ what: String, _ condition: () throws -> Bool) throws {
        guard try OutboxTestSupport.waitUntil(seconds, condition) else {
            throw Failure(description: "timed out after \(seconds) s waiting for \(what); log: \(errorLog.suffix(2000))")
        }
    }

    public var errorLog: String { (try? String(contentsOfFile: directory + "/log/error_log", encoding: .utf8)) ?? "" }

    @discardableResult
    public func run(_ arguments: [String]) throws -> String {
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tool.arguments = arguments
        let output = Pipe()
        tool.standardOutput = output
        tool.standardError = output
        tool.standardInput = FileHandle.nullDevice
        try tool.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        tool.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard tool.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) exited \(tool.terminationStatus): \(text)")
        }
        return text
    }

}

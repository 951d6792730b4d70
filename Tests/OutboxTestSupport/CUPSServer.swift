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
    private var pid: pid_t = 0
    private var pdfConfigs: [String] = []
    private let token = String(UUID().uuidString.prefix(8)).lowercased()

    public struct Failure: Error, CustomStringConvertible { public var description: String }

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
        try """
        SystemGroup root lpadmin
        ServerRoot \(directory)/root
        RequestRoot \(directory)/spool
        TempDir \(directory)/spool/tmp
        CacheDir \(directory)/cache
        StateDir \(directory)/state
        AccessLog \(directory)/log/access_log
        ErrorLog \(directory)/log/error_log
        PageLog \(directory)/log/page_log

        """.write(toFile: directory + "/cups-files.conf", atomically: true, encoding: .utf8)
        try """
        LogLevel warn
        Listen 127.0.0.1:\(port)
        Listen \(socketPath)
        Browsing No
        WebInterface No
        IdleExitTimeout 0
        PreserveJobHistory Yes
        DefaultAuthType None
        <Location />
          Order allow,deny
          Allow all
        </Location>
        <Policy default>
          <Limit All>
            Order deny,allow
          </Limit>
        </Policy>

        """.write(toFile: directory + "/cupsd.conf", atomically: true, encoding: .utf8)
        try start()
    }

    deinit { shutdown() }

    /// Starts (or restarts) cupsd and waits until it answers, with a deadline.
    ///
    /// Spawned with an empty signal mask: test threads (libdispatch workers) block SIGTERM,
    /// and a child started by Foundation's `Process` would inherit that and never stop.
    public func start() throws {
        guard pid == 0 else { return }
        let arguments = ["/usr/sbin/cupsd", "-f", "-c", directory + "/cupsd.conf", "-s", directory + "/cups-files.conf"]
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, arguments[0], &actions, &attributes, argv, environ)
        guard status == 0 else { throw Failure(description: "posix_spawn cupsd: \(String(cString: strerror(status)))") }
        pid = child
        try waitUntil(seconds: 10, "cupsd to answer on \(socketPath)") {
            (try? self.run(["lpstat", "-h", self.socketPath, "-r"]))?.contains("is running") == true
        }
    }

    /// Stops cupsd (SIGTERM to its PID, SIGKILL after 10 s) and reaps it.
    public func stop() {
        guard pid != 0 else { return }
        defer { pid = 0 }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return
            }
            usleep(20_000)
        }
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

import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A daemon a test fixture started (Kannel's boxes, cupsd, the python HTTP peers, aiosmtpd and
/// Postfix's smtp-sink): output to a log file, stopped by its own PID with SIGTERM, then
/// SIGKILL after a deadline.
///
/// Spawned with `posix_spawn` rather than Foundation's `Process`: children of a test process
/// inherit a signal mask with SIGTERM blocked, so a daemon would ignore the polite stop. Here
/// the child gets an empty mask and default handlers.
public final class FixtureProcess: Sendable {
    public let name: String
    public let logPath: String
    public let pid: pid_t
    private let reaped = Mutex(false)

    public init(name: String, executable: String, arguments: [String], logPath: String) throws {
        self.name = name
        self.logPath = logPath
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        guard posix_spawn_file_actions_init(&actions) == 0, posix_spawnattr_init(&attributes) == 0 else {
            throw StartupError("\(name): posix_spawn setup failed")
        }
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        var empty = sigset_t()
        var all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        var checks = [
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0),
            posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644),
            posix_spawn_file_actions_adddup2(&actions, 1, 2),
            posix_spawnattr_setsigmask(&attributes, &empty),
            posix_spawnattr_setsigdefault(&attributes, &all),
        ]
        checks.append(posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)))
        guard checks.allSatisfy({ $0 == 0 }) else { throw StartupError("\(name): posix_spawn setup failed") }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard result == 0 else {
            throw StartupError("\(name): cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    public var isRunning: Bool { !hasExited }

    /// SIGTERM, wait up to `grace` seconds, then SIGKILL; returns once the process is reaped.
    public func stop(grace: Double = 5) {
        reaped.withLock { done in
            guard !done else { return }
            kill(pid, SIGTERM)
            let deadline = Date().addingTimeInterval(grace)
            while !hasExited, Date() < deadline { usleep(10_000) }
            if !hasExited { kill(pid, SIGKILL) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            done = true
        }
    }

    /// Gone or a zombie (`kill -0` is still true for a zombie, so read the state from /proc).
    private var hasExited: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    public var output: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    deinit { stop(grace: 1) }

    public struct StartupError: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }
}

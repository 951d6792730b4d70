import Foundation

/// What one run of the `outbox` binary did.
public struct CLIResult: Sendable, CustomStringConvertible {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// The child's peak resident set size, in bytes (from `wait4`'s rusage).
    public var maxRSS: Int

    public var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// stdout parsed as JSON Lines.
    public var jsonLines: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    public var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// Runs the built `outbox` executable as a subprocess against a temporary database, with `HOME`
/// and the XDG directories inside the test's temporary directory, so no test sees the user's
/// config or data.
public struct CLIRunner: Sendable {
    public let database: String
    public let home: String
    public var extraEnvironment: [String: String] = [:]

    public init(_ temporary: TemporaryDatabase) {
        database = temporary.path
        home = temporary.directory + "/home"
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    /// The `outbox` binary: next to the test bundle (same build configuration), else
    /// `.build/debug/outbox` under the package root found from this file's path.
    public static let executable: String = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("outbox").path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("outbox").path,
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/outbox").path,
        ]
        for path in candidates where FileManager.default.isExecutableFile(atPath: path) { return path }
        fatalError("the outbox binary was not found (looked at \(candidates)); run `swift build` first")
    }()

    public var environment: [String: String] {
        var env = [
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "OUTBOX_DB": database,
            "HOME": home,
            "XDG_CONFIG_HOME": home + "/.config",
            "XDG_DATA_HOME": home + "/.local/share",
            "XDG_CACHE_HOME": home + "/.cache",
            "TMPDIR": NSTemporaryDirectory(),
            "LANG": "C.UTF-8",
        ]
        env.merge(extraEnvironment) { $1 }
        return env
    }

    /// Runs `outbox ARGS…` with `stdin` (empty when `nil`) and waits for it.
    @discardableResult
    public func run(_ arguments: [String], stdin: String? = nil) -> CLIResult {
        run(arguments, stdinData: Data((stdin ?? "").utf8))
    }

    @discardableResult
    public func run(_ arguments: [String], stdinData: Data) -> CLIResult {
        // stdin, stdout and stderr go through files: no pipe can fill up and deadlock.
        let scratch = NSTemporaryDirectory() + "outbox-cli-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let inPath = scratch + "/stdin", outPath = scratch + "/stdout", errPath = scratch + "/stderr"
        FileManager.default.createFile(atPath: inPath, contents: stdinData)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = [Self.executable] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var cArgs = argv.map { strdup($0) } + [nil]
        var cEnv = envp.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }

        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Self.executable, &actions, nil, &cArgs, &cEnv)
        precondition(spawned == 0, "posix_spawn \(Self.executable) failed: \(spawned)")
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return CLIResult(status: exitStatus, stdout: read(outPath), stderr: read(errPath), maxRSS: Int(usage.ru_maxrss) * 1024)
    }
}

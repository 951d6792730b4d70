import Foundation
import Synchronization

/// Runs the built `outbox` binary as a separate process, for tests that need real processes
/// (kill -9, signals, several workers on one file).
public struct OutboxProcess: Sendable {
    /// `.build/debug/outbox` of this package, found from this file's path.
    public static let binary: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.appendingPathComponent(".build/debug/outbox").path
    }()

    public static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    public let environment: [String: String]

    /// `database` and `config` are passed as `OUTBOX_DB` / `OUTBOX_CONFIG`; `extra` adds to them.
    public init(database: String, config: String? = nil, extra: [String: String] = [:]) {
        var env = ProcessInfo.processInfo.environment
        env["OUTBOX_DB"] = database
        env["OUTBOX_CONFIG"] = config ?? ""
        env.merge(extra) { $1 }
        environment = env
    }

    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `outbox ARGS…` to completion.
    @discardableResult
    public func run(_ arguments: [String]) throws -> Output {
        let process = configured(arguments)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain stderr on another thread so neither pipe can fill up and block the child.
        let errData = Mutexed<Data>(Data())
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: errData.get(), as: UTF8.self))
    }

    /// Starts `outbox ARGS…` in the background with its output discarded (or sent to `log`).
    public func start(_ arguments: [String], log: String? = nil) throws -> Process {
        let process = configured(arguments)
        if let log, FileManager.default.createFile(atPath: log, contents: nil), let handle = FileHandle(forWritingAtPath: log) {
            process.standardError = handle
            process.standardOutput = handle
        } else {
            process.standardError = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
        }
        try process.run()
        return process
    }

    private func configured(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        return process
    }
}

/// A value handed between threads in test helpers.
public final class Mutexed<T: Sendable>: Sendable {
    private let value: Mutex<T>
    public init(_ value: T) { self.value = Mutex(value) }
    public func get() -> T { value.withLock { $0 } }
    public func set(_ new: T) { value.withLock { $0 = new } }
    /// Read-modify-write under one lock (a `get` then `set` from several threads loses updates).
    public func update(_ change: (inout T) -> Void) { value.withLock { change(&$0) } }
}

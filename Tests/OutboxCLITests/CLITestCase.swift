import Foundation
import OutboxTestSupport
import Testing

/// One temporary database and a runner for the built `outbox` binary.
struct CLI {
    let temporary: TemporaryDatabase
    var runner: CLIRunner

    init(_ label: String = "cli") {
        temporary = TemporaryDatabase(label)
        runner = CLIRunner(temporary)
    }

    @discardableResult
    func run(_ args: String..., stdin: String? = nil) -> CLIResult { runner.run(args, stdin: stdin) }

    @discardableResult
    func run(_ args: [String], stdin: String? = nil) -> CLIResult { runner.run(args, stdin: stdin) }

    /// Runs a command that must succeed, returning its output.
    @discardableResult
    func ok(_ args: String..., stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> CLIResult {
        let result = runner.run(args, stdin: stdin)
        #expect(result.status == 0, "\(args.joined(separator: " ")) → \(result)", sourceLocation: sourceLocation)
        return result
    }

    /// Stores a mail and returns its id.
    func mail(_ extra: String..., to: String = "ada@example.org", subject: String = "Minutes",
              sourceLocation: SourceLocation = #_sourceLocation) -> Int64 {
        let result = runner.run(["mail", "--to", to, "--subject", subject, "--body", "hello"] + extra, stdin: "")
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        return Int64(result.lines.first ?? "") ?? -1
    }

    func counts() -> [String: Int] { (try? temporary.rowCounts()) ?? [:] }
    func states() -> [Int64: String] { (try? temporary.states()) ?? [:] }
    func force(_ id: Int64, _ state: String) throws {
        try temporary.execute("UPDATE message SET state = '\(state)', finished_at = 1 WHERE id = \(id)")
    }

    /// Runs `args` expecting exit `code`, and checks nothing in the database changed.
    @discardableResult
    func refused(_ code: Int32, _ args: [String], stdin: String? = nil,
                 sourceLocation: SourceLocation = #_sourceLocation) -> CLIResult {
        let before = counts(), statesBefore = states()
        let result = runner.run(args, stdin: stdin)
        #expect(result.status == code, "\(args.joined(separator: " ")) → \(result)", sourceLocation: sourceLocation)
        #expect(!result.stderr.isEmpty, "no message on stderr for \(args)", sourceLocation: sourceLocation)
        #expect(counts() == before, "\(args.joined(separator: " ")) wrote rows", sourceLocation: sourceLocation)
        #expect(states() == statesBefore, "\(args.joined(separator: " ")) changed states", sourceLocation: sourceLocation)
        return result
    }
}

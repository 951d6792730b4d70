import Foundation
import OutboxModel
import OutboxSQLite
import OutboxStore

/// A fresh temporary directory with a database path in it; removed when the fixture goes away.
/// (This test target depends on the store only, so it carries its own small fixture.)
final class StoreFixture {
    let directory: String
    let path: String
    private(set) var store: OutboxStore!

    init(open: Bool = true) throws {
        directory = NSTemporaryDirectory() + "outbox-store-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/outbox.sqlite"
        if open { store = try OutboxStore.open(path: path) }
    }

    deinit {
        store?.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func closeStore() { store?.close(); store = nil }

    func file(_ name: String) -> String { directory + "/" + name }

    @discardableResult
    func write(_ name: String, _ data: Data) throws -> String {
        let path = file(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Rows in every ordinary table, plus the search index's documents.
    func counts() throws -> [String: Int] {
        let db = store.db
        let tables = try db.rows("""
            SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'
            AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'message_search_%'
            """) { $0.string(0) }
        var counts: [String: Int] = [:]
        for table in tables { counts[table] = try db.scalar("SELECT count(*) FROM \"\(table)\"") ?? 0 }
        counts["message_search_docsize"] = try db.scalar("SELECT count(*) FROM message_search_docsize") ?? 0
        return counts
    }

    func count(_ table: String) throws -> Int { try store.db.scalar("SELECT count(*) FROM \(table)") ?? 0 }

    func state(_ id: Int64) throws -> MessageState? { try store.summary(id: id)?.state }

    /// Forces a message into a state (as the worker would), with its finished time.
    func force(_ id: Int64, to state: MessageState, finishedAt: Milliseconds? = nil) throws {
        try store.db.run("UPDATE message SET state = ?, finished_at = ? WHERE id = ?",
                         [state.rawValue, finishedAt ?? (state.isFinal ? Timestamp.now() : nil), id])
    }

    /// Stores one message and returns its id.
    @discardableResult
    func add(_ message: NewMessage) throws -> Int64 { try store.enqueue([message]).ids[0] }

    @discardableResult
    func mail(to: String = "ada@example.org", subject: String = "Minutes", body: String = "See attached.",
              state: MessageState = .queued, key: String? = nil, files: [NewAttachment] = []) throws -> Int64 {
        try add(NewMessage(content: .mail(MailContent(to: [to], subject: subject, textBody: body)),
                           state: state, idempotencyKey: key, files: files))
    }

    @discardableResult
    func sms(to: String = "+4915112345678", body: String = "On my way", state: MessageState = .queued) throws -> Int64 {
        try add(NewMessage(content: .sms(SMSContent(recipient: to, body: body)), state: state))
    }

    @discardableResult
    func printJob(text: String = "Hello printer", jobName: String = "Notes", destination: String? = "pdf",
                  state: MessageState = .queued) throws -> Int64 {
        let job = PrintJob(info: PrintInfo(jobName: jobName),
                           content: .renderer(PageRenderer(formatters: [PrintFormatter(kind: .text, text: text)])))
        return try add(NewMessage(content: .print(job), state: state, destination: destination))
    }
}

/// Bytes that are not all alike (so an accidental dedup or a zero-filled blob cannot pass).
func patternedBytes(_ count: Int, seed: UInt64) -> Data {
    var state = seed &* 6364136223846793005 &+ 1442695040888963407
    var data = Data(count: count)
    data.withUnsafeMutableBytes { buffer in
        let bytes = buffer.bindMemory(to: UInt8.self)
        for i in 0..<count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            bytes[i] = UInt8(truncatingIfNeeded: state >> 33)
        }
    }
    return data
}

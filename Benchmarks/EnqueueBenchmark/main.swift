// Library enqueue benchmark (issue 2): stores the mails of a JSON Lines file (made by
// Benchmarks/foundation.sh) through `OutboxStore.enqueueBatch` in batches, one transaction each,
// then brings the search index up to date as the idle worker or a first search would.
// Parsing happens before the clock starts: only the store is timed, as in the Python floor.
//
//   outbox-enqueue-benchmark DATABASE LINES.jsonl BATCH
// prints: <enqueue msg/s> <index msg/s>
import FoundationEssentials
import Glibc
import OutboxModel
import OutboxStore

let arguments = CommandLine.arguments
guard arguments.count == 4, let batchSize = Int(arguments[3]), batchSize > 0 else {
    SystemFile.standardError.write("usage: outbox-enqueue-benchmark DATABASE LINES.jsonl BATCH\n")
    exit(64)
}

func seconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

do {
    let text = try String(contentsOfFile: arguments[2], encoding: .utf8)
    var messages: [[NewMessage]] = []
    for line in text.split(separator: "\n") {
        var object = try JSONObjectReader(try JSONValue.parse(Data(line.utf8)), path: "") { OutboxError.data($0) }
        let mail = MailContent(to: try object.strings("to") ?? [], subject: try object.string("subject") ?? "",
                               textBody: try object.string("body"))
        messages.append([NewMessage(content: .mail(mail))])
    }
    let store = try OutboxStore.open(path: arguments[1])
    defer { store.close() }

    let start = seconds()
    for first in stride(from: 0, to: messages.count, by: batchSize) {
        _ = try store.enqueueBatch(Array(messages[first..<min(messages.count, first + batchSize)]))
    }
    let stored = seconds()
    guard store.catchUpSearchIndex() else { throw OutboxError.io("the search index could not be brought up to date") }
    let indexed = seconds()
    print(Int(Double(messages.count) / (stored - start)), Int(Double(messages.count) / (indexed - stored)))
} catch {
    SystemFile.standardError.write("outbox-enqueue-benchmark: \(error)\n")
    exit(70)
}

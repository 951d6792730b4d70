import Dispatch
import Foundation
import Synchronization
import OutboxEngine
import OutboxModel
import Testing
@testable import OutboxMail

/// Measurements run by `Benchmarks/mail-smtp.sh`, which starts the servers and passes their URLs
/// in the environment. Skipped in a normal test run: figures are printed, never asserted.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["OUTBOX_BENCH"] != nil))
struct MailBenchmark {
    let environment = ProcessInfo.processInfo.environment

    /// Many 1 KB messages over reused connections, from `OUTBOX_BENCH_THREADS` sending threads.
    @Test func throughput() throws {
        guard let url = environment["OUTBOX_BENCH_SMTP_URL"] else { return }
        let count = Int(environment["OUTBOX_BENCH_COUNT"] ?? "") ?? 10_000
        let threads = Int(environment["OUTBOX_BENCH_THREADS"] ?? "") ?? 4
        let sink = try SMTPTest.sink(url)
        defer { sink.shutdown() }
        let body = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 22)
        let failures = Mutex(0)
        let start = DispatchTime.now()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in stride(from: thread, to: count, by: threads) {
                let mail = MailContent(to: ["ada@example.org"], subject: "Benchmark \(index)", textBody: body)
                do { _ = try sink.deliver(TestMail.delivery(mail, messageID: Int64(index), uid: "bench-\(index)")) }
                catch { failures.withLock { $0 += 1 } }
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        print("RESULT outbox-smtp messages=\(count) threads=\(threads) seconds=\(String(format: "%.2f", seconds)) "
              + "rate=\(Int(Double(count) / seconds))/s failures=\(failures.withLock { $0 })")
    }

    /// One message with a large attachment, generated on the fly so only the sink buffers it;
    /// prints the process's peak RSS (VmHWM) before and after.
    @Test func largeAttachment() throws {
        guard let url = environment["OUTBOX_BENCH_BIG_URL"] else { return }
        let megabytes = Int(environment["OUTBOX_BENCH_BIG_MB"] ?? "") ?? 100
        let size = megabytes * 1024 * 1024
        let sink = try SMTPTest.sink(url) { $0.timeoutSeconds = 600 }
        defer { sink.shutdown() }
        let before = Self.peakRSSKilobytes()
        let info = AttachmentInfo(position: 0, role: .attachment, filename: "big.bin", mimeType: "application/octet-stream",
                                  size: size, sha256: "")
        let delivery = Delivery(messageID: 1, uid: "bench-big", destination: nil, attemptNumber: 1,
                                content: .mail(MailContent(to: ["ada@example.org"], subject: "Big", textBody: "big")),
                                attachments: [info], files: GeneratedAttachmentSource(size: size), createdAt: 0)
        let start = DispatchTime.now()
        let receipt = try sink.deliver(delivery)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        print("RESULT outbox-big attachment=\(megabytes)MB seconds=\(String(format: "%.2f", seconds)) "
              + "peak_rss_before=\(before / 1024)MB peak_rss_after=\(Self.peakRSSKilobytes() / 1024)MB outcome=\(receipt.outcome)")
    }

    static func peakRSSKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

/// An attachment of `size` pseudo-random bytes produced while read: nothing is held in memory.
final class GeneratedAttachmentSource: AttachmentSource {
    let size: Int
    init(size: Int) { self.size = size }
    func open(messageID: Int64, position: Int) throws -> any ByteStream { Stream(size: size) }

    final class Stream: ByteStream {
        let size: Int
        var offset = 0
        var state: UInt64 = 1
        init(size: Int) { self.size = size }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let count = min(buffer.count, size - offset)
            for index in 0..<count {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                buffer[index] = UInt8(truncatingIfNeeded: state >> 33)
            }
            offset += count
            return count
        }
        func close() {}
    }
}

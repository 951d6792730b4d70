import Foundation
import OutboxEngine
import OutboxModel
import OutboxSMS
import Synchronization
import Testing

/// Figures for `Benchmarks/sms-*.sh`; skipped unless the script sets the environment. They
/// print numbers and assert nothing about speed (DESIGN: performance is measured by scripts).
@Suite struct SMSBenchmarkTests {
    static let environment = ProcessInfo.processInfo.environment

    /// One sink shared by `lanes` threads, as the worker's SMS lane shares it between its
    /// concurrent deliveries: once one at a time, once at the default SMS concurrency (2).
    @Test(.enabled(if: environment["OUTBOX_BENCH_KANNEL_URL"] != nil))
    func kannelThroughput() throws {
        var config = KannelConfig(url: Self.environment["OUTBOX_BENCH_KANNEL_URL"]!)
        config.username = Self.environment["OUTBOX_BENCH_KANNEL_USER"]
        config.password = SecretReference(environmentVariable: "OUTBOX_BENCH_KANNEL_PASSWORD")
        let sink = try KannelSink(config: config)
        defer { sink.shutdown() }
        let count = Int(Self.environment["OUTBOX_BENCH_COUNT"] ?? "") ?? 5000
        let deliveries = (0..<count).map { smsDelivery(id: Int64($0), to: "+4915112345678", body: "Benchmark message \($0)") }
        for lanes in [1, WorkerConfig().concurrency[.sms] ?? 2] {
            let failures = Mutex(0)
            let start = Date()
            DispatchQueue.concurrentPerform(iterations: lanes) { lane in
                for index in stride(from: lane, to: count, by: lanes) {
                    do { _ = try sink.deliver(deliveries[index]) } catch { failures.withLock { $0 += 1 } }
                }
            }
            let seconds = Date().timeIntervalSince(start)
            #expect(failures.withLock { $0 } == 0)
            print("outbox-bench kannel lanes=\(lanes) messages=\(count) seconds=\(String(format: "%.2f", seconds)) rate=\(String(format: "%.0f", Double(count) / seconds))/s")
        }
    }

    @Test(.enabled(if: environment["OUTBOX_BENCH_ENCODING"] != nil))
    func encodingThroughput() {
        let texts = [
            "Your code is 123456. It expires in 10 minutes.",
            "Grüße aus Berlin! Treffen um 18:00 am Café {Mitte} — bis dann €5",
            "日本語のテキストです。明日の会議は10時からです。",
            "Running late 😅 see you soon 👍🏽",
            String(repeating: "Long GSM text with [brackets] and ~tildes~. ", count: 8),
        ]
        let rounds = Int(Self.environment["OUTBOX_BENCH_ENCODING"] ?? "") ?? 1_000_000
        var checksum = 0
        let start = Date()
        for i in 0..<rounds { checksum &+= SMSEncoding.analyze(texts[i % texts.count]).segments }
        let seconds = Date().timeIntervalSince(start)
        print("outbox-bench encoding texts=\(rounds) seconds=\(String(format: "%.3f", seconds)) rate=\(String(format: "%.0f", Double(rounds) / seconds))/s checksum=\(checksum)")
    }
}

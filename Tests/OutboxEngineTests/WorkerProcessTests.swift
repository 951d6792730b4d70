import Foundation
import OutboxModel
import OutboxStore
import OutboxTestSupport
import Testing

/// Reliability with real processes: the built `outbox` binary, killed, signalled, run side by
/// side, on a real database file. Needs `swift build --product outbox` (CI builds it first).
@Suite(.serialized, .enabled(if: OutboxProcess.isBuilt, "build the outbox binary first"))
struct WorkerProcessTests {
    let dir = TemporaryDirectory("outbox-proc")
    var db: String { dir.file("outbox.sqlite") }
    var out: String { dir.file("out") }

    /// A config capturing mail to `out` with short leases so killed workers' messages return fast.
    func config(concurrency: Int = 1, grace: Double = 10, maxLostLeases: Int = 3) throws -> String {
        let path = dir.file("config.json")
        let json = """
            {"worker": {"concurrency": {"mail": \(concurrency), "sms": 1, "print": 1}, "lease_seconds": 1,
                        "max_lost_leases": \(maxLostLeases), "shutdown_grace_seconds": \(grace)},
             "mail": {"sink": "directory", "directory": {"path": "\(out)/mail"}},
             "sms": {"sink": "directory", "directory": {"path": "\(out)/sms"}},
             "print": {"pdf": {"directory": "\(out)/pdf"}}}
            """
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func queueMail(_ count: Int, prefix: String = "m") throws {
        let store = try OutboxStore.open(path: db)
        defer { store.close() }
        let batch = (0..<count).map { n in
            [NewMessage(content: .mail(MailContent(sender: "me@example.org", to: ["\(prefix)\(n)@example.org"],
                                                   subject: "\(prefix) \(n)", textBody: "body")))]
        }
        _ = try store.enqueueBatch(batch)
    }

    func counts() throws -> [String: Int] {
        let store = try OutboxStore.open(path: db)
        defer { store.close() }
        return Dictionary(uniqueKeysWithValues: try store.db.rows("SELECT state, count(*) FROM message GROUP BY state") {
            ($0.string(0), $0.int(1))
        })
    }

    func scalar(_ sql: String) throws -> Int {
        let store = try OutboxStore.open(path: db)
        defer { store.close() }
        return try store.db.scalar(sql) ?? 0
    }

    func files(_ channel: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "\(out)/\(channel)")) ?? []).filter { !$0.hasPrefix(".") }
    }

    @Test func killNineDuringADrainLosesNothing() throws {
        defer { dir.remove() }
        let cli = OutboxProcess(database: db, config: try config(maxLostLeases: 10))
        try queueMail(2000)
        let kills = 4
        for _ in 0..<kills {
            let worker = try cli.start(["worker", "--channel", "mail"])
            // Kill it at a random moment once it has made some progress.
            let before = try counts()["sent", default: 0]
            _ = waitUntil(10) { ((try? counts()["sent", default: 0]) ?? 0) > before + Int.random(in: 20...200) }
            kill(worker.processIdentifier, SIGKILL)
            worker.waitUntilExit()
        }
        // Restart until everything is out (the last kill's lease expires after a second).
        let drained = try waitUntil(60) {
            let result = try cli.run(["worker", "--once", "--channel", "mail"])
            #expect(result.status == 0, "\(result.stderr)")
            return try counts() == ["sent": 2000]
        }
        #expect(drained, "\((try? counts()) ?? [:])")
        #expect(try counts()["sending"] == nil)
        #expect(files("mail").count == 2000)
        // A duplicate delivery finds its file already written; each follows a lost lease.
        let duplicates = try scalar("SELECT count(*) FROM attempt WHERE outcome = 'sent' AND detail LIKE 'already written%'")
        #expect(duplicates <= kills)
        let unexplained = try scalar("""
            SELECT count(*) FROM attempt a WHERE a.outcome = 'sent' AND a.detail LIKE 'already written%'
            AND NOT EXISTS (SELECT 1 FROM attempt b WHERE b.message_id = a.message_id AND b.outcome IN ('lost_lease', 'uncertain'))
            """)
        #expect(unexplained == 0)
    }

    @Test func twoWorkersAndFourWritersDeliverExactlyOnce() throws {
        defer { dir.remove() }
        let seconds = Double(ProcessInfo.processInfo.environment["OUTBOX_STRESS_SECONDS"] ?? "") ?? 20
        let cli = OutboxProcess(database: db, config: try config(concurrency: 2))
        _ = try cli.run(["init"])
        let workers = try (0..<2).map { n in try cli.start(["worker"], log: dir.file("worker\(n).log")) }
        let deadline = Date().addingTimeInterval(seconds)
        let failures = Mutexed<[String]>([])
        let written = Mutexed<Int>(0)
        let group = DispatchGroup()
        for writer in 0..<4 {
            DispatchQueue.global().async(group: group) {
                var n = 0
                while Date() < deadline {
                    let args = writer % 2 == 0
                        ? ["mail", "--to", "w\(writer)-\(n)@example.org", "--from", "me@example.org", "--subject", "s\(n)", "--body", "b"]
                        : ["sms", "--to", "+49170\(String(format: "%07d", writer * 1_000_000 + n))", "--body", "b\(n)"]
                    do {
                        let result = try cli.run(args)
                        if result.status != 0 { failures.update { $0.append("\(result.status): \(result.stderr)") } }
                        else { written.update { $0 += 1 } }
                    } catch { failures.update { $0.append("\(error)") } }
                    n += 1
                }
            }
        }
        group.wait()
        #expect(failures.get().isEmpty, "\(failures.get().prefix(3))")
        let total = written.get()
        #expect(total > 0)
        let drained = waitUntil(30) { (try? counts()) == ["sent": total] }
        for worker in workers { worker.terminate() }
        for worker in workers { worker.waitUntilExit() }
        #expect(drained, "\((try? counts()) ?? [:])")
        #expect(files("mail").count + files("sms").count == total)
        #expect(try scalar("SELECT count(*) FROM attempt WHERE outcome <> 'sent'") == 0)
        for n in 0..<2 {
            let log = (try? String(contentsOfFile: dir.file("worker\(n).log"), encoding: .utf8)) ?? ""
            #expect(!log.contains("locked"), "\(log)")
            #expect(!log.contains("error"), "\(log)")
        }
    }

    @Test func sigtermDuringASlowDeliveryFinishesIt() throws {
        defer { dir.remove() }
        let cli = OutboxProcess(database: db, config: try config(), extra: ["OUTBOX_TEST_SINK": "slow:1.5"])
        try queueMail(1)
        let worker = try cli.start(["worker", "--verbose"], log: dir.file("worker.log"))
        #expect(waitUntil(10) { (try? counts()) == ["sending": 1] })
        kill(worker.processIdentifier, SIGTERM)
        worker.waitUntilExit()
        #expect(worker.terminationReason == .exit && worker.terminationStatus == 0)
        #expect(try counts() == ["sent": 1])
        #expect(files("mail").count == 1)
    }

    @Test func secondSignalExitsAtOnceAndLeasesExpire() throws {
        defer { dir.remove() }
        let cli = OutboxProcess(database: db, config: try config(), extra: ["OUTBOX_TEST_SINK": "slow:30"])
        try queueMail(1)
        let worker = try cli.start(["worker", "--verbose"], log: dir.file("worker.log"))
        #expect(waitUntil(10) { (try? counts()) == ["sending": 1] })
        kill(worker.processIdentifier, SIGTERM)
        // Two signals sent back to back can be merged by the kernel into one: send the second
        // once the first has been seen.
        #expect(waitUntil(5) { ((try? String(contentsOfFile: dir.file("worker.log"), encoding: .utf8)) ?? "").contains("worker.stopping") })
        kill(worker.processIdentifier, SIGTERM)
        let exited = waitUntil(5) { !worker.isRunning }
        #expect(exited)
        if !exited { kill(worker.processIdentifier, SIGKILL) }
        // The lease (1 s) expires; the next worker recovers the message and delivers it.
        let fast = OutboxProcess(database: db, config: try config())
        #expect(waitUntil(20) { _ = try? fast.run(["worker", "--once"]); return (try? counts()) == ["sent": 1] })
        #expect(try scalar("SELECT count(*) FROM attempt WHERE outcome = 'lost_lease'") == 1)
    }

    @Test func offlineSinkExits75WithNoAttemptSpent() throws {
        defer { dir.remove() }
        let cli = OutboxProcess(database: db, config: try config(), extra: ["OUTBOX_TEST_SINK": "offline"])
        try queueMail(3)
        let result = try cli.run(["worker", "--once"])
        #expect(result.status == 75)
        #expect(try counts() == ["queued": 3])
        #expect(try scalar("SELECT sum(attempts) FROM message") == 0)
    }

    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func fullDiskFailsWith74AndCorruptsNothing() throws {
        defer { dir.remove() }
        let mount = dir.file("small")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let mounted = Process()
        mounted.executableURL = URL(fileURLWithPath: "/bin/mount")
        mounted.arguments = ["-t", "tmpfs", "-o", "size=600k", "tmpfs", mount]
        try mounted.run()
        mounted.waitUntilExit()
        guard mounted.terminationStatus == 0 else { return }  // no permission to mount here
        defer {
            let umount = Process()
            umount.executableURL = URL(fileURLWithPath: "/bin/umount")
            umount.arguments = [mount]
            try? umount.run()
            umount.waitUntilExit()
        }
        let smallDB = mount + "/outbox.sqlite"
        let cli = OutboxProcess(database: smallDB, config: try config())
        let body = dir.file("body.txt")
        try String(repeating: "0123456789abcdef", count: 4096).write(toFile: body, atomically: true, encoding: .utf8)
        var stored = 0, status: Int32 = 0, stderr = ""
        for n in 0..<200 {
            let result = try cli.run(["mail", "--to", "u\(n)@example.org", "--from", "me@example.org", "--subject", "s", "--body-file", body])
            if result.status != 0 { status = result.status; stderr = result.stderr; break }
            stored += 1
        }
        #expect(status == 74, "\(stderr)")
        #expect(stderr.contains("full"))
        #expect(stored > 0)
        // The worker still delivers what was stored (its writes are small), and nothing is corrupt.
        _ = try cli.run(["worker", "--once"])
        let store = try OutboxStore.open(path: smallDB)
        defer { store.close() }
        #expect(try store.db.first("PRAGMA integrity_check", [], { $0.string(0) }) == "ok")
        #expect(try store.db.scalar("SELECT count(*) FROM message") == stored)
    }
}

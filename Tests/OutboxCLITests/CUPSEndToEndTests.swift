import Foundation
import OutboxTestSupport
import Testing

/// `outbox print --to QUEUE` → a running `outbox worker` → a private cupsd with a cups-pdf queue:
/// the job is submitted, followed until CUPS completes it, and lands as a PDF; then
/// `retry --to` reprints the kept rendering on another queue.
@Suite("Print end to end through CUPS", .serialized)
struct CUPSEndToEndTests {
    @Test func printJobIsFollowedToCompletedAndCanBeRedirected() throws {
        let server = try CUPSServer()
        defer { server.shutdown() }
        let office = try server.addPDFQueue("Office")
        let annex = try server.addPDFQueue("Annex")
        let cli = CLI("cups-e2e")
        let config = cli.temporary.write("config.json", """
            {"print": {"cups": {"server": "\(server.socketPath)"}}}
            """)
        let text = cli.temporary.write("notes.txt", (1...80).map { "Line \($0) of the notes" }.joined(separator: "\n"))
        #expect(cli.ok("--config", config, "print", "--text-file", text, "--to", "Office", "--copies", "2",
                       "--footer-center", "page {page} of {pages}").lines == ["1"])
        #expect(cli.run("--config", config, "print", "--text", "x", "--to", "NoSuchQueue").status == 65)

        let process = OutboxProcess(database: cli.temporary.path, config: config, extra: ["HOME": cli.runner.home])
        let worker = try process.start(["worker", "--verbose"], log: cli.temporary.file("worker.log"))
        defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL) }; worker.waitUntilExit() }
        let state = { (id: String) in cli.run("show", id, "--json").jsonLines.first?["state"] as? String }

        let done = waitUntil(30) { state("1") == "sent" }
        let log = (try? String(contentsOfFile: cli.temporary.file("worker.log"), encoding: .utf8)) ?? ""
        #expect(done, "\(log)\n\(server.errorLog.suffix(2000))")
        let shown = cli.ok("show", "1", "--json").jsonLines.first ?? [:]
        let result = shown["print_result"] as? [String: Any] ?? [:]
        #expect(result["job_state"] as? String == "completed")
        #expect((result["pages"] as? Int ?? 0) >= 2)
        let jobID = result["cups_job_id"] as? Int ?? -1
        #expect(waitUntil(10) { !server.outputs(in: office, job: jobID).isEmpty })

        // `retry --to` sends a cancelled (or failed) job to another queue.
        #expect(cli.ok("--config", config, "print", "--text-file", text, "--to", "Office", "--draft").lines == ["2"])
        cli.ok("cancel", "2")
        cli.ok("--config", config, "retry", "2", "--to", "Annex")
        #expect(waitUntil(30) { state("2") == "sent" })
        let annexJob = (cli.ok("show", "2", "--json").jsonLines.first?["print_result"] as? [String: Any])?["cups_job_id"] as? Int ?? -1
        #expect(waitUntil(10) { !server.outputs(in: annex, job: annexJob).isEmpty })
    }
}

import Foundation
import OutboxEngine
import OutboxModel
import OutboxTestSupport
import Testing
@testable import OutboxPrint

/// Against a real cupsd with cups-pdf, started per test on loopback.
@Suite(.serialized) struct CUPSSinkTests {
    func config(_ server: CUPSServer, default destination: String = "pdf") -> PrintConfig {
        var config = PrintConfig()
        config.cupsServer = server.socketPath
        config.defaultDestination = destination
        return config
    }

    /// Follows until the job is final, polling with a deadline.
    func follow(_ sink: any Sink, _ receipt: DeliveryReceipt, destination: String, server: CUPSServer, seconds: Double = 20) throws -> FollowUp {
        let message = SubmittedMessage(messageID: 1, uid: "u", destination: destination, remoteID: receipt.remoteID, submittedAt: 0)
        var last: FollowUp?
        try server.waitUntil(seconds: seconds, "job \(receipt.remoteID ?? "?") to end") {
            last = sink.followUp(message)
            return last.map { $0.outcome != .pending } ?? false
        }
        return try #require(last)
    }

    @Test func jobCompletesAndItsPDFLands() throws {
        let server = try CUPSServer()
        defer { server.shutdown() }
        let out = try server.addPDFQueue("Office")
        let sink = PrintSinks.make(config: config(server))
        var info = PrintInfo(jobName: "CUPS seeds example", duplex: .longEdge, copies: 2)
        info.paper = "Letter"
        var job = SampleJobs.seedsExample(body: SampleJobs.lines(30))
        job.info = info
        let receipt = try sink.deliver(MemoryAttachments().delivery(job, destination: "Office"))
        #expect(receipt.outcome == .submitted)
        let jobID = try #require(receipt.printResult?.cupsJobID)
        #expect(receipt.remoteID == String(jobID))
        #expect(receipt.keep?.role == .rendered)
        defer { receipt.keep.map { _ = unlink($0.path) } }
        if let kept = receipt.keep?.path { #expect(try PDFTools.pages(kept) == receipt.printResult?.pages) }

        // The options reach the job attributes.
        let attributes = try server.jobAttributes(jobID)
        #expect(attributes.contains("copies (integer) = 2"))
        #expect(attributes.contains("two-sided-long-edge"))
        #expect(attributes.contains("na_letter_8.5x11in"))
        #expect(attributes.contains("job-name (nameWithoutLanguage) = CUPS seeds example"))

        let final = try follow(sink, receipt, destination: "Office", server: server)
        #expect(final.outcome == .delivered)
        #expect(final.printResult?.jobState == "completed")
        try server.waitUntil(seconds: 5, "cups-pdf output") { !server.outputs(in: out, job: jobID).isEmpty }
        let pdf = try #require(server.outputs(in: out, job: jobID).first)
        #expect(try PDFTools.pages(pdf) == receipt.printResult?.pages)
    }

    @Test func singlePDFItemIsSentAsItIsWithPageRanges() throws {
        let server = try CUPSServer()
        defer { server.shutdown() }
        try server.addPDFQueue("Office")
        let directory = try PDFTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try PrintRenderer(job: SampleJobs.text(SampleJobs.lines(200))).render(files: LocalPrintFiles([:]), to: directory + "/in.pdf")
        let files = MemoryAttachments()
        let item = try files.add(file: directory + "/in.pdf", role: .item, mimeType: "application/pdf")
        let job = PrintJob(info: PrintInfo(jobName: "As is", pageRanges: "1-2"), content: .items([item]))
        let receipt = try PrintSinks.make(config: config(server)).deliver(files.delivery(job, destination: "Office"))
        #expect(receipt.keep == nil)
        let attributes = try server.jobAttributes(Int(receipt.remoteID ?? "") ?? 0)
        #expect(attributes.contains("page-ranges (rangeOfInteger) = 1-2"))
    }

    @Test func brokenDeviceEndsAbortedAndFails() throws {
        let server = try CUPSServer()
        defer { server.shutdown() }
        try server.addFailingQueue("Broken")
        let sink = PrintSinks.make(config: config(server))
        let receipt = try sink.deliver(MemoryAttachments().delivery(SampleJobs.text("Never printed"), destination: "Broken"))
        defer { receipt.keep.map { _ = unlink($0.path) } }
        let final = try follow(sink, receipt, destination: "Broken", server: server, seconds: 60)
        #expect(final.outcome == .undelivered)
        #expect(final.printResult?.jobState == "aborted")
        #expect(final.code?.hasPrefix("ipp aborted") == true)
    }

    @Test func stoppedPrinterIsTransient() throws {
        let server = try CUPSServer()
        defer { server.shutdown() }
        try server.addPDFQueue("Office")
        try server.stopPrinter("Office")
        let sink = PrintSinks.make(config: config(server))
        do {
            _ = try sink.deliver(MemoryAttachments().delivery(SampleJobs.text("Later"), destination: "Office"))
            Issue.record("a stopped printer took the job")
        } catch {
            #expect(error.errorClass == .transient)
            #expect(error.code == "ipp printer-stopped")
        }
    }

    @Test func unknownPrinterIsPermanentAndRefusedAtCompose() throws {
        let server = try CUPSServer()
        defer { server.shutdown() }
        let config = config(server)
        do {
            _ = try PrintSinks.make(config: config).deliver(MemoryAttachments().delivery(SampleJobs.text("x"), destination: "Nowhere"))
            Issue.record("an unknown printer took the job")
        } catch {
            #expect(error.errorClass == .permanent)
        }
        #expect(throws: OutboxError.self) { try PrintSinks.checkDestination("Nowhere", config: config) }
        try PrintSinks.checkDestination("pdf", config: config)
    }

    @Test func cupsDownIsOfflineAndDrainsWhenBack() throws {
        let server = try CUPSServer()
        defer { server.shutdown() }
        let out = try server.addPDFQueue("Office")
        let config = config(server)
        server.stop()
        let sink = PrintSinks.make(config: config)
        let delivery = MemoryAttachments().delivery(SampleJobs.text("Offline first"), destination: "Office")
        do {
            _ = try sink.deliver(delivery)
            Issue.record("delivered while cupsd was down")
        } catch {
            #expect(error.errorClass == .offline)
        }
        // While CUPS is unreachable a job for any queue may be composed.
        try PrintSinks.checkDestination("Office", config: config)
        if case .unreachable(let error) = CUPSSink(config: config).probe() { #expect(error.errorClass == .offline) } else { Issue.record("probe said reachable") }

        try server.start()
        let receipt = try sink.deliver(delivery)
        defer { receipt.keep.map { _ = unlink($0.path) } }
        #expect(try follow(sink, receipt, destination: "Office", server: server).outcome == .delivered)
        let jobID = try #require(receipt.printResult?.cupsJobID)
        try server.waitUntil(seconds: 5, "cups-pdf output") { !server.outputs(in: out, job: jobID).isEmpty }
    }

    @Test func resubmissionToAnotherQueueReprintsTheKeptPDF() throws {
        let server = try CUPSServer()
        defer { server.shutdown() }
        try server.addPDFQueue("First")
        let second = try server.addPDFQueue("Second")
        let sink = PrintSinks.make(config: config(server))
        let first = try sink.deliver(MemoryAttachments().delivery(SampleJobs.seedsExample(body: SampleJobs.lines(20)), destination: "First"))
        let kept = try #require(first.keep?.path)
        defer { unlink(kept) }
        // The retry: same job, the kept rendering attached, another queue.
        let files = MemoryAttachments()
        try files.add(file: kept, role: .rendered, mimeType: "application/pdf")
        let retry = try sink.deliver(files.delivery(SampleJobs.seedsExample(body: "changed"), destination: "Second"))
        #expect(retry.keep == nil)
        #expect(try follow(sink, retry, destination: "Second", server: server).outcome == .delivered)
        let jobID = try #require(retry.printResult?.cupsJobID)
        try server.waitUntil(seconds: 5, "cups-pdf output") { !server.outputs(in: second, job: jobID).isEmpty }
        #expect(try PDFTools.pages(server.outputs(in: second, job: jobID)[0]) == first.printResult?.pages)
    }

    @Test func printersAreListed() throws {
        let server = try CUPSServer()
        defer { server.shutdown() }
        try server.addPDFQueue("Office")
        try server.lpadmin(["-d", "Office"])
        let printers = try PrinterCatalog.list(config: config(server))
        let office = try #require(printers.first { $0.name == "Office" })
        #expect(office.state == "idle")
        #expect(office.media.isEmpty == false)
        #expect(office.color)
    }
}

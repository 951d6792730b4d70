import Foundation
import OutboxEngine
import OutboxModel
import Testing
@testable import OutboxPrint

@Suite struct PDFSinkTests {
    @Test func simpleTextJobLandsAsNamedPDF() throws {
        let directory = try PDFTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var config = PrintConfig()
        config.pdfDirectory = directory
        let files = MemoryAttachments()
        let job = SampleJobs.text("Hello from the outbox.\nSecond line.", info: PrintInfo(jobName: "../Quarterly/report"))
        let receipt = try PDFSink(config: config).deliver(files.delivery(job, id: 42))

        #expect(receipt.outcome == .sent)
        let path = try #require(receipt.printResult?.pdfPath)
        #expect((path as NSString).lastPathComponent == "42-_Quarterly_report.pdf")
        #expect(receipt.printResult?.pages == 1)
        #expect(try PDFTools.pages(path) == 1)
        #expect(try PDFTools.text(path).contains("Hello from the outbox."))
        let sha = try PDFTools.run(["sha256sum", path]).prefix(64)
        #expect(receipt.printResult?.pdfSHA256 == String(sha))
        #expect(receipt.keep?.role == .rendered)
        // Nothing but the final file in the directory: the temporary name was renamed.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["42-_Quarterly_report.pdf"])
    }

    @Test func seedsExampleThroughTheRouter() throws {
        let directory = try PDFTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var config = PrintConfig()
        config.pdfDirectory = directory
        let sink = PrintSinks.make(config: config)
        let receipt = try sink.deliver(MemoryAttachments().delivery(SampleJobs.seedsExample()))
        let path = try #require(receipt.printResult?.pdfPath)
        let pages = try PDFTools.pages(path)
        #expect(pages >= 3)
        #expect(receipt.printResult?.pages == pages)
        #expect(try PDFTools.text(path, page: 2).contains("Page 2 of \(pages)"))
    }

    @Test func keptRenderingIsReprintedAsItIs() throws {
        let directory = try PDFTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var config = PrintConfig()
        config.pdfDirectory = directory
        // A rendered PDF from an earlier attempt, and a job whose text now says something else.
        let earlier = directory + "/earlier.pdf"
        _ = try PrintRenderer(job: SampleJobs.text("Printed the first time")).render(files: LocalPrintFiles([:]), to: earlier)
        let files = MemoryAttachments()
        try files.add(file: earlier, role: .rendered, mimeType: "application/pdf")
        let receipt = try PDFSink(config: config).deliver(files.delivery(SampleJobs.text("Changed since"), id: 9))
        let path = try #require(receipt.printResult?.pdfPath)
        #expect(try PDFTools.text(path).contains("Printed the first time"))
        #expect(receipt.keep == nil)
    }

    @Test func badInputFailsPermanently() throws {
        let directory = try PDFTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var config = PrintConfig()
        config.pdfDirectory = directory
        let files = MemoryAttachments()
        let position = files.add(Array("%PDF-1.4 this is not really a pdf".utf8), role: .item, filename: "broken.pdf", mimeType: "application/pdf")
        let job = PrintJob(info: PrintInfo(jobName: "Broken"), content: .items([position]))
        #expect(throws: SinkError.self) { try PDFSink(config: config).deliver(files.delivery(job)) }
        do {
            _ = try PDFSink(config: config).deliver(files.delivery(job))
        } catch {
            #expect(error.errorClass == .permanent)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test func fileNamesAreSanitised() {
        #expect(JobFileName.make(messageID: 1, jobName: "...hidden") == "1-hidden.pdf")
        #expect(JobFileName.make(messageID: 2, jobName: "a/b\\c\nd") == "2-a_b_c_d.pdf")
        #expect(JobFileName.make(messageID: 3, jobName: "   ") == "3-job.pdf")
        #expect(JobFileName.make(messageID: 4, jobName: String(repeating: "x", count: 300)).count == "4-".count + 80 + ".pdf".count)
        #expect(JobFileName.make(messageID: 5, jobName: "report.pdf") == "5-report.pdf")
    }
}

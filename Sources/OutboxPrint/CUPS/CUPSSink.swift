import CCups
import Foundation
import OutboxEngine
import OutboxModel

/// A CUPS queue as a print destination. `deliver` submits the document (our rendering, the
/// kept rendering of an earlier attempt, or a single PDF/image item as it is) and returns
/// `submitted` with the CUPS job id; `followUp` reads the job's state until it ends.
///
/// Classification: cupsd unreachable → offline; printer stopped or not accepting → transient;
/// unknown printer, unprintable document → permanent.
public struct CUPSSink: Sink {
    public let config: PrintConfig

    public init(config: PrintConfig) { self.config = config }

    public var channel: Channel { .print }
    public var name: String { "cups" }
    public var destinationDescription: String {
        "CUPS queue \(config.defaultDestination) on \(config.cupsServer ?? String(cString: cupsServer()))"
    }

    public func probe() -> SinkProbe {
        do {
            let connection = try CUPSConnection(server: config.cupsServer)
            connection.close()
            return .reachable(detail: "CUPS at \(connection.server)")
        } catch {
            return .unreachable(error)
        }
    }

    public func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt {
        guard case .print(let job) = delivery.content else {
            throw SinkError(.permanent, code: "cups wrong-channel", "the CUPS sink only takes print jobs")
        }
        let queue = delivery.destination ?? config.defaultDestination
        let connection = try CUPSConnection(server: config.cupsServer)
        defer { connection.close() }
        let destination = try connection.destination(named: queue)
        if destination.isStopped {
            throw SinkError(.transient, code: "ipp printer-stopped", "printer \(queue) is stopped (\(destination.stateReasons)); start it with `cupsenable \(queue)`")
        }
        if !destination.isAcceptingJobs {
            throw SinkError(.transient, code: "ipp not-accepting-jobs", "printer \(queue) is not accepting jobs; `cupsaccept \(queue)` lets it")
        }

        let files: StoredPrintFiles
        do { files = try StoredPrintFiles(delivery: delivery) } catch { throw PDFSink.sinkError(error) }
        defer { files.removeAll() }
        let renderPath = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(delivery.messageID)-\(delivery.uid).pdf").path
        let document: PrintDocument
        do {
            document = try PrintDocument.prepare(delivery, job: job, defaults: config.defaults, files: files,
                                                 passThrough: [.pdf, .png, .jpeg], renderPath: renderPath)
        } catch {
            throw PDFSink.sinkError(error)
        }

        let paper = try? PaperSize.parse(job.info.paper)
        let options = CUPSJobOptions(info: job.info, paper: paper, sendOrientation: !document.rangesApplied,
                                     rangesApplied: document.rangesApplied)
        let unsupported = options.pairs.filter { !destination.supports($0.name, $0.value, connection: connection) }
            .map { "\($0.name)=\($0.value)" }
        let jobID = try submit(document, title: job.info.jobName, options: options, to: destination, connection: connection)

        Log.shared.info("print.cups.submitted", id: delivery.messageID, channel: .print, ["queue": queue, "job": String(jobID)])
        var detail = "CUPS job \(jobID) on \(queue)"
        if !unsupported.isEmpty { detail += "; the printer does not support " + unsupported.joined(separator: ", ") }
        return DeliveryReceipt(
            outcome: .submitted, remoteID: String(jobID), code: "ipp successful-ok", detail: detail,
            printResult: PrintResult(cupsJobID: jobID, printer: queue, jobState: "pending", pages: document.pages),
            keep: document.freshlyRendered
                ? KeptFile(path: renderPath, role: .rendered, filename: JobFileName.make(messageID: delivery.messageID, jobName: job.info.jobName),
                           mimeType: "application/pdf", isTemporary: true)
                : nil)
    }

    /// Create-Job, Send-Document streamed in chunks, then the final status.
    private func submit(_ document: PrintDocument, title: String, options: CUPSJobOptions, to destination: CUPSDestination,
                        connection: CUPSConnection) throws(SinkError) -> Int {
        let http = connection.http
        let info = destination.information(connection)
        var jobID: Int32 = 0
        let created = options.withCOptions { count, list in
            cupsCreateDestJob(http, destination.dest, info, &jobID, title, count, list)
        }
        guard created.rawValue < 0x0400, jobID > 0 else { throw Self.classify(created, during: "Create-Job on \(destination.name)") }

        do throws(SinkError) {
            guard let file = fopen(document.path, "rb") else {
                throw SinkError(.transient, code: "cups read", "cannot read \(document.path): \(String(cString: strerror(errno)))")
            }
            defer { fclose(file) }
            let started = cupsStartDestDocument(http, destination.dest, info, jobID, title, document.mimeType, 0, nil, 1)
            guard started == HTTP_STATUS_CONTINUE else {
                throw SinkError(.transient, code: "http \(started.rawValue)", "Send-Document for job \(jobID) was refused: \(CUPSConnection.lastError.message)")
            }
            var buffer = [CChar](repeating: 0, count: 1 << 16)
            while true {
                let count = fread(&buffer, 1, buffer.count, file)
                if count > 0 {
                    let written = cupsWriteRequestData(http, buffer, count)
                    guard written == HTTP_STATUS_CONTINUE else {
                        throw SinkError(.transient, code: "http \(written.rawValue)", "sending job \(jobID) to CUPS failed: \(CUPSConnection.lastError.message)")
                    }
                }
                if count < buffer.count { break }
            }
            let finished = cupsFinishDestDocument(http, destination.dest, info)
            guard finished.rawValue < 0x0400 else { throw Self.classify(finished, during: "Send-Document for job \(jobID)") }
        } catch {
            // The job exists but has no document: take it back so the retry is the only copy.
            _ = cupsCancelDestJob(http, destination.dest, jobID)
            throw error
        }
        return Int(jobID)
    }

    /// IPP status → error class.
    static func classify(_ status: ipp_status_t, during what: String) -> SinkError {
        let name = String(cString: ippErrorString(status))
        let message = CUPSConnection.lastError.message
        let detail = "\(what) failed: \(message.isEmpty ? name : message)"
        switch status {
        case IPP_STATUS_ERROR_SERVICE_UNAVAILABLE:
            return SinkError(.offline, code: "ipp \(name)", detail)
        case IPP_STATUS_ERROR_NOT_ACCEPTING_JOBS, IPP_STATUS_ERROR_BUSY, IPP_STATUS_ERROR_TEMPORARY, IPP_STATUS_ERROR_INTERNAL:
            return SinkError(.transient, code: "ipp \(name)", detail)
        default:
            return SinkError(status.rawValue >= 0x0500 ? .transient : .permanent, code: "ipp \(name)", detail)
        }
    }

    public func followUp(_ message: SubmittedMessage) -> FollowUp? {
        guard let remoteID = message.remoteID, let jobID = Int(remoteID) else {
            return FollowUp(outcome: .undelivered, code: "cups no-job-id", detail: "the message has no CUPS job id to follow")
        }
        let queue = message.destination ?? config.defaultDestination
        let state: CUPSJobState?
        do {
            let connection = try CUPSConnection(server: config.cupsServer)
            defer { connection.close() }
            state = try CUPSJobState.fetch(jobID: jobID, connection: connection)
        } catch {
            // cupsd away: nothing new; the worker asks again later.
            return nil
        }
        guard let state else {
            return FollowUp(outcome: .undelivered, code: "ipp client-error-not-found",
                            detail: "CUPS no longer knows job \(jobID) on \(queue); `outbox retry \(message.messageID)` reprints the kept PDF")
        }
        let reasons = state.reasons.joined(separator: ",")
        let result = PrintResult(cupsJobID: jobID, printer: queue, jobState: state.name, stateReasons: reasons, pages: state.impressions)
        switch state.state {
        case 9:
            return FollowUp(outcome: .delivered, code: "ipp completed", detail: "CUPS job \(jobID) on \(queue) completed", printResult: result)
        case 7, 8:
            return FollowUp(outcome: .undelivered, code: "ipp \(state.name) \(reasons)",
                            detail: "CUPS job \(jobID) on \(queue) \(state.name): \(reasons)", printResult: result)
        default:
            return FollowUp(outcome: .pending, code: "ipp \(state.name) \(reasons)",
                            detail: "CUPS job \(jobID) on \(queue) is \(state.name) (\(reasons))", printResult: result)
        }
    }
}

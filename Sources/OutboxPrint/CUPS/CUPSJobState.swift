import Foundation
import CCups
import OutboxEngine

/// A CUPS job's state read with IPP Get-Job-Attributes (`lpstat -W completed` would list
/// aborted and cancelled jobs as completed, so the real `job-state` is asked for).
struct CUPSJobState: Equatable {
    /// IPP job-state: 3 pending … 9 completed.
    var state: Int32
    var reasons: [String]
    var impressions: Int?

    var name: String {
        switch state {
        case 3: "pending"
        case 4: "held"
        case 5: "processing"
        case 6: "stopped"
        case 7: "canceled"
        case 8: "aborted"
        case 9: "completed"
        default: "unknown-\(state)"
        }
    }

    var isFinal: Bool { state >= 7 }

    /// Asks cupsd; nil when the job is unknown to it (purged or another server).
    static func fetch(jobID: Int, connection: CUPSConnection) throws(SinkError) -> CUPSJobState? {
        guard let request = ippNewRequest(IPP_OP_GET_JOB_ATTRIBUTES) else {
            throw SinkError(.transient, code: "ipp request", "ippNewRequest failed")
        }
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, "ipp://localhost/")
        ippAddInteger(request, IPP_TAG_OPERATION, IPP_TAG_INTEGER, "job-id", Int32(jobID))
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", nil, cupsUser())
        let wanted = ["job-state", "job-state-reasons", "job-impressions-completed"]
        withArrayOfCStrings(wanted) { values in
            _ = ippAddStrings(request, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", Int32(wanted.count), nil, values)
        }
        // cupsDoRequest frees the request.
        guard let response = cupsDoRequest(connection.http, request, "/") else {
            let (status, message) = CUPSConnection.lastError
            if status == IPP_STATUS_ERROR_NOT_FOUND { return nil }
            throw SinkError(.offline, code: "ipp \(String(cString: ippErrorString(status)))", "Get-Job-Attributes for job \(jobID) failed: \(message)")
        }
        defer { ippDelete(response) }
        let status = ippGetStatusCode(response)
        if status == IPP_STATUS_ERROR_NOT_FOUND { return nil }
        guard status.rawValue < 0x0400, let stateAttribute = ippFindAttribute(response, "job-state", IPP_TAG_ENUM) else {
            throw SinkError(.transient, code: "ipp \(String(cString: ippErrorString(status)))", "Get-Job-Attributes for job \(jobID) failed")
        }
        var reasons: [String] = []
        if let attribute = ippFindAttribute(response, "job-state-reasons", IPP_TAG_KEYWORD) {
            for index in 0..<ippGetCount(attribute) {
                if let text = ippGetString(attribute, index, nil) { reasons.append(String(cString: text)) }
            }
        }
        let impressions = ippFindAttribute(response, "job-impressions-completed", IPP_TAG_INTEGER).map { Int(ippGetInteger($0, 0)) }
        return CUPSJobState(state: ippGetInteger(stateAttribute, 0), reasons: reasons, impressions: impressions)
    }
}

/// Calls `body` with a C array of C strings valid for the call.
func withArrayOfCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let duplicates = strings.map { strdup($0) }
    defer { duplicates.forEach { free($0) } }
    let pointers = duplicates.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

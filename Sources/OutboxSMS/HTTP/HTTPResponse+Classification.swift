import OutboxEngine
import OutboxModel

extension HTTPResponse {
    var isSuccess: Bool { (200..<300).contains(status) }

    /// The shared HTTP rule for a gateway's refusal (DESIGN "Classification"): 408, 429 and
    /// 5xx may pass and are `transient`, honouring `Retry-After`; any other status will not
    /// change on a retry and is `permanent`.
    func refusal(_ gateway: String, code: String? = nil, detail: String? = nil) -> SinkError {
        let code = code ?? "http \(status)"
        let what = detail ?? Self.snippet(text)
        switch status {
        case 408, 429, 500...599:
            return SinkError(.transient, code: code, "\(gateway) answered \(status), will retry: \(what)",
                             retryAfterSeconds: retryAfterSeconds)
        default:
            return SinkError(.permanent, code: code, "\(gateway) refused the message (\(status)): \(what)")
        }
    }

    /// The start of a body, on one line, for attempt details.
    static func snippet(_ text: String) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        return flat.count > 200 ? String(flat.prefix(200)) + "…" : (flat.isEmpty ? "(empty body)" : flat)
    }
}

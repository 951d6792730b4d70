/// URL helpers for the gateway sinks.
enum SMSURL {
    /// The URL without user info or query, safe for `status` and logs (a query may hold a password).
    static func redacted(_ url: String) -> String {
        var text = Substring(url)
        if let query = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<query] }
        if let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@"),
           !text[scheme.upperBound..<at].contains("/") {
            text = text[..<scheme.upperBound] + text[text.index(after: at)...]
        }
        return String(text)
    }

    /// Appends an encoded query to a URL that may already have one.
    static func appending(_ url: String, query: String) -> String {
        url + (url.contains("?") ? "&" : "?") + query
    }

    /// Drops trailing slashes so paths can be appended.
    static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}

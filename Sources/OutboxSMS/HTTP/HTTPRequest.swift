import Foundation

/// One HTTP request as the gateway sinks need them: a GET or a POST of a small body.
struct HTTPRequest: Sendable {
    enum Method: String, Sendable { case get = "GET", post = "POST" }

    var method: Method
    var url: String
    /// Sent in order; values may be secrets and are never logged.
    var headers: [(name: String, value: String)] = []
    var body: Data?
    /// HTTP basic auth; the password is a resolved secret and never logged.
    var basicAuth: (user: String, password: String)?

    init(method: Method, url: String) {
        self.method = method
        self.url = url
    }

    static func get(_ url: String) -> HTTPRequest { HTTPRequest(method: .get, url: url) }

    /// An `application/x-www-form-urlencoded` POST.
    static func postForm(_ url: String, _ fields: [(String, String)]) -> HTTPRequest {
        var request = HTTPRequest(method: .post, url: url)
        request.headers.append(("Content-Type", "application/x-www-form-urlencoded"))
        request.body = Data(FormEncoding.encode(fields).utf8)
        return request
    }

    /// A JSON POST of bytes already encoded.
    static func postJSON(_ url: String, _ json: Data) -> HTTPRequest {
        var request = HTTPRequest(method: .post, url: url)
        request.headers.append(("Content-Type", "application/json"))
        request.body = json
        return request
    }
}

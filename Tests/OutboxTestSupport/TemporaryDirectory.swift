import Foundation

/// A fresh directory under the system temp dir, removed by `remove()` (tests call it in `defer`).
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init(_ prefix: String = "outbox-test") {
        let base = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
        try! FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        path = base
    }

    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

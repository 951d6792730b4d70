/// An error meant for the user: what is wrong, what to do, and the exit code it maps to.
public struct OutboxError: Error, CustomStringConvertible, Sendable, Equatable {
    public let code: ExitCode
    public let message: String

    public init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    public static func usage(_ message: String) -> OutboxError { .init(.usage, message) }
    public static func data(_ message: String) -> OutboxError { .init(.dataError, message) }
    public static func noInput(_ message: String) -> OutboxError { .init(.noInput, message) }
    public static func config(_ message: String) -> OutboxError { .init(.config, message) }
    public static func io(_ message: String) -> OutboxError { .init(.ioError, message) }
}

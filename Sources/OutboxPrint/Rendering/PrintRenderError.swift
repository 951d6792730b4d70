import OutboxEngine
import OutboxModel

/// Why a print job could not be rendered. `badInput` is the user's data (an unknown image
/// format, a corrupt PDF, a font file that is not a font): compose time refuses it with exit
/// 65 and a sink fails it permanently, since retrying cannot help.
public struct PrintRenderError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable { case badInput = "bad-input", io, `internal` }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    static func bad(_ message: String) -> PrintRenderError { .init(.badInput, message) }

    /// The user-facing error of `outbox render` / compose-time checks.
    public var outboxError: OutboxError {
        switch kind {
        case .badInput: .data(message)
        case .io: .init(.cantCreate, message)
        case .internal: .init(.software, message)
        }
    }

    /// The sink-facing error: bad input never renders on a retry; a full disk might.
    public var sinkError: SinkError {
        switch kind {
        case .badInput: SinkError(.permanent, code: "render \(kind.rawValue)", message)
        case .io, .internal: SinkError(.transient, code: "render \(kind.rawValue)", message)
        }
    }
}

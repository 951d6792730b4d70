import FoundationEssentials

/// A secret given by reference only: an environment variable or a file. The value is read when
/// needed and never stored, logged or printed.
public struct SecretReference: Sendable, Equatable, CustomStringConvertible {
    public var environmentVariable: String?
    public var file: String?

    public init(environmentVariable: String? = nil, file: String? = nil) {
        self.environmentVariable = environmentVariable
        self.file = file
    }

    public var isSet: Bool { environmentVariable != nil || file != nil }

    /// The secret's value; `nil` when no reference is configured.
    public func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws(OutboxError) -> String? {
        if let name = environmentVariable {
            guard let value = environment[name], !value.isEmpty else {
                throw .config("the environment variable \(name) named in the config is not set")
            }
            return value
        }
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw .config("cannot read the secret file \(file) named in the config")
            }
            return String(decoding: data, as: UTF8.self).trimmingLineBreaks()
        }
        return nil
    }

    /// Where the secret comes from, never the secret itself.
    public var description: String {
        if let environmentVariable { return "$\(environmentVariable)" }
        if let file { return "file \(file)" }
        return "none"
    }
}

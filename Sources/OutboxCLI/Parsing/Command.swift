import OutboxModel

/// A subcommand: its name, one-line abstract, options and what it does. `outbox help` and
/// `outbox COMMAND --help` are generated from these same declarations, so help never drifts.
public protocol Command: Sendable {
    static var name: String { get }
    static var aliases: [String] { get }
    static var abstract: String { get }
    /// Positional arguments as shown in usage, e.g. `ID…` or `[FILE | -]`.
    static var arguments: String { get }
    static var options: [OptionSpec] { get }
    /// Longer help after the options (examples, notes).
    static var discussion: String { get }

    /// Whether the command needs the sinks or the print engine, which only `outbox-delivery`
    /// loads: the front end hands such a command over before it opens or reads anything.
    static func needsDelivery(_ arguments: ParsedArguments) -> Bool

    /// Checks the arguments before anything is opened or written.
    static func validate(_ arguments: ParsedArguments) throws(OutboxError)
    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode
}

extension Command {
    public static var aliases: [String] { [] }
    public static var arguments: String { "" }
    public static var discussion: String { "" }
    public static func needsDelivery(_ arguments: ParsedArguments) -> Bool { false }
    public static func validate(_ arguments: ParsedArguments) throws(OutboxError) {}
}

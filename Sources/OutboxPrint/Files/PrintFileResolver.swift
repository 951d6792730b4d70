/// Gives the renderer a readable file path for an attachment position: poppler, fontconfig
/// and cairo's PNG loader all open files by path.
public protocol PrintFileResolver {
    /// The path of attachment `position`; throws `badInput` when the job names a missing one.
    func path(forAttachment position: Int) throws -> String
    /// The MIME type recorded for it, when known (compose-time files have none).
    func mimeType(forAttachment position: Int) -> String?
    /// How errors name it: the file name the user gave.
    func displayName(forAttachment position: Int) -> String
}

/// Files already on disk: the CLI's `render` and compose-time checks, and tests.
public struct LocalPrintFiles: PrintFileResolver {
    public var paths: [Int: String]
    public init(_ paths: [Int: String]) { self.paths = paths }

    public func path(forAttachment position: Int) throws -> String {
        guard let path = paths[position] else { throw PrintRenderError.bad("the print job names attachment \(position), which it does not have") }
        return path
    }

    public func mimeType(forAttachment position: Int) -> String? { nil }

    public func displayName(forAttachment position: Int) -> String { paths[position] ?? "attachment \(position)" }
}

import FoundationEssentials
import OutboxModel

/// The seeds' Printer Simulator: the PDF a print job would produce, without queueing it.
struct RenderCommand: Command {
    static let name = "render"
    static let abstract = "preview a print job as a PDF file without queueing it; prints the page count"
    static let arguments = "[FILE…]"
    static func needsDelivery(_ args: ParsedArguments) -> Bool { true }
    static let options = [OptionSpec.value("out", "FILE.pdf", "where to write the PDF (required)")]
        + PrintComposer.specs.filter { $0.name != "to" }

    static func validate(_ args: ParsedArguments) throws(OutboxError) {
        guard let out = args.value("out"), !out.isEmpty else { throw .usage("render needs --out FILE.pdf") }
    }

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let config = try context.config()
        defer { TemporaryFiles.removeAll() }
        let message = try PrintComposer.message(args, config: config)
        guard case .print(let job) = message.content else { return .software }
        let out = Paths.expand(args.value("out")!)
        let pages = try DeliveryProgram.services().renderPreview(job, files: PrintDestinations.files(message), config: config, out: out)
        context.output.line("\(pages) page\(pages == 1 ? "" : "s") written to \(out)")
        return .ok
    }
}

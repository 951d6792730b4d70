import OutboxModel

struct PrintersCommand: Command {
    static let name = "printers"
    static func needsDelivery(_ args: ParsedArguments) -> Bool { true }
    static let abstract = "list CUPS destinations with their duplex, colour and media support"
    static let options: [OptionSpec] = [.flag("json", "one JSON object per printer")]
    static let discussion = "`pdf` is always available as well: it renders into print.pdf.directory."

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let config = try context.config()
        let printers = try DeliveryProgram.services().printers(config: config)
        if args.has("json") {
            for p in printers {
                context.output.json(["name": p.name, "default": p.isDefault, "info": p.info, "location": p.location,
                                     "state": p.state, "state_reasons": p.stateReasons, "accepting_jobs": p.acceptingJobs,
                                     "duplex": p.duplex, "color": p.color, "media": p.media])
            }
            return .ok
        }
        var table = Table(["PRINTER", "DEFAULT", "STATE", "ACCEPTING", "DUPLEX", "COLOUR", "MEDIA"])
        table.add(["pdf", config.print.defaultDestination == "pdf" ? "yes" : "", "idle", "yes", "-", "yes",
                   "renders into \(Paths.abbreviate(config.print.pdfDirectory))"])
        for p in printers {
            table.add([p.name, p.isDefault ? "yes" : "", p.state + (p.stateReasons.isEmpty || p.stateReasons == "none" ? "" : " (\(p.stateReasons))"),
                       p.acceptingJobs ? "yes" : "no", p.duplex ? "yes" : "no", p.color ? "yes" : "no",
                       p.media.prefix(4).joined(separator: ", ") + (p.media.count > 4 ? ", …" : "")])
        }
        context.output.line(table.render())
        return .ok
    }
}

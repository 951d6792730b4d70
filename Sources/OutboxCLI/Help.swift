/// Help text generated from the commands' declarations.
enum Help {
    static let version = "outbox 0.1.0"

    static var overview: String {
        var text = """
            outbox — a persistent outbox for mail, SMS and print jobs

            usage: outbox [--db PATH] [--config PATH] COMMAND [OPTIONS]

            commands:

            """
        let width = CommandRegistry.all.map { $0.name.count }.max() ?? 10
        for command in CommandRegistry.all {
            let alias = command.aliases.isEmpty ? "" : " (alias: \(command.aliases.joined(separator: ", ")))"
            text += "  \(TerminalWidth.padded(command.name, to: width))  \(command.abstract)\(alias)\n"
        }
        text += """

            global options:
            \(optionLines(GlobalOptions.specs + [.flag("version", "print the version")]))

            `outbox COMMAND --help` shows a command's options. Exit codes follow sysexits(3):
            0 ok, 64 usage, 65 bad data, 66 missing input, 69 unavailable, 70 internal,
            73 cannot create, 74 I/O error, 75 try again later, 78 bad config.
            """
        return text
    }

    static func command(_ command: any Command.Type) -> String {
        var text = "outbox \(command.name) — \(command.abstract)\n\nusage: outbox \(command.name)"
        if !command.options.isEmpty { text += " [OPTIONS]" }
        if !command.arguments.isEmpty { text += " \(command.arguments)" }
        text += "\n"
        if !command.aliases.isEmpty { text += "alias: \(command.aliases.joined(separator: ", "))\n" }
        if !command.options.isEmpty { text += "\noptions:\n" + optionLines(command.options) + "\n" }
        text += "\nglobal options:\n" + optionLines(GlobalOptions.specs) + "\n"
        if !command.discussion.isEmpty { text += "\n" + command.discussion + "\n" }
        return text
    }

    static func optionLines(_ options: [OptionSpec]) -> String {
        let width = min(34, options.map { $0.usage.count }.max() ?? 0)
        return options.map { option in
            let usage = option.usage
            return usage.count > width
                ? "  \(usage)\n  \(String(repeating: " ", count: width))  \(option.help)"
                : "  \(TerminalWidth.padded(usage, to: width))  \(option.help)"
        }.joined(separator: "\n")
    }
}

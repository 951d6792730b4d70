import FoundationEssentials
import OutboxModel
import OutboxStore

/// The `outbox` program: parses the command line, runs one command, maps every error to its
/// sysexits code in one place.
public enum OutboxCommandLine {
    public static func main(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Int32 {
        var args = arguments
        var globals: [String: String] = [:]
        // Global options before the command name.
        while let first = args.first, first.hasPrefix("--") {
            if first == "--version" { print(Help.version); return 0 }
            if first == "--help" || first == "-h" { print(Help.overview); return 0 }
            let (name, inline) = split(first)
            guard name == "db" || name == "config" else {
                return fail(OutboxError.usage("unknown global option --\(name); global options are --db, --config, --help and --version"))
            }
            args.removeFirst()
            if let inline { globals[name] = inline } else {
                guard let value = args.first else { return fail(OutboxError.usage("--\(name) needs a value")) }
                globals[name] = value
                args.removeFirst()
            }
        }
        guard let name = args.first else {
            print(Help.overview)
            return ExitCode.usage.rawValue
        }
        args.removeFirst()
        if name == "help" {
            if let topic = args.first {
                guard let command = CommandRegistry.find(topic) else { return unknownCommand(topic) }
                print(Help.command(command))
            } else {
                print(Help.overview)
            }
            return 0
        }
        if name == "-h" { print(Help.overview); return 0 }
        guard let command = CommandRegistry.find(name) else { return unknownCommand(name) }
        if args.contains("--help") || args.contains("-h") {
            print(Help.command(command))
            return 0
        }
        let context: Context
        do {
            var parsed = try ArgumentParser.parse(args, options: command.options + GlobalOptions.specs, command: command.name)
            for (key, value) in globals where parsed.values[key] == nil { parsed.values[key] = [value] }
            try command.validate(parsed)
            // Hand over before anything is read: standard input cannot be read twice.
            if command.needsDelivery(parsed) { _ = try DeliveryProgram.services() }
            context = Context(configPath: parsed.value("config"), databasePath: parsed.value("db"))
            defer { context.close() }
            // A broken config is reported whatever the command, before anything is opened.
            _ = try context.config()
            return try command.run(parsed, context).rawValue
        } catch {
            return fail(error)
        }
    }

    static func split(_ arg: String) -> (String, String?) {
        let body = String(arg.dropFirst(2))
        guard let eq = body.firstIndex(of: "=") else { return (body, nil) }
        return (String(body[..<eq]), String(body[body.index(after: eq)...]))
    }

    static func unknownCommand(_ name: String) -> Int32 {
        let hint = Spelling.closest(to: name, in: CommandRegistry.names).map { " (did you mean '\($0)'?)" } ?? ""
        return fail(OutboxError.usage("unknown command '\(name)'\(hint); `outbox help` lists the commands"))
    }

    /// Prints an error and returns its exit code: our own errors carry one; anything else is a bug.
    @discardableResult
    static func fail(_ error: Error) -> Int32 {
        let (code, message): (ExitCode, String) = switch error {
        case let error as OutboxError: (error.code, error.message)
        default: (.software, "internal error: \(error)")
        }
        SystemFile.standardError.write("outbox: \(message)\n")
        return code.rawValue
    }
}

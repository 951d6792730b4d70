import OutboxModel

/// A small, declarative parser: `--name value`, `--name=value`, `--flag`, `--` ends options,
/// `-` is a positional (stdin). Unknown flags get a "did you mean" and exit 64.
public enum ArgumentParser {
    public static func parse(_ args: [String], options: [OptionSpec], command: String) throws(OutboxError) -> ParsedArguments {
        var result = ParsedArguments()
        let byName = Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0) })
        var index = 0
        var onlyPositionals = false
        while index < args.count {
            let arg = args[index]
            index += 1
            if onlyPositionals || !arg.hasPrefix("--") || arg == "--" {
                if arg == "--" && !onlyPositionals { onlyPositionals = true; continue }
                if arg.hasPrefix("-") && arg.count > 1 && !onlyPositionals && Double(arg) == nil {
                    throw .usage("unknown option '\(arg)' for `outbox \(command)`: options start with -- (see `outbox \(command) --help`)")
                }
                result.positionals.append(arg)
                continue
            }
            var name = String(arg.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let spec = byName[name] else {
                let hint = Spelling.closest(to: name, in: options.map(\.name)).map { " (did you mean --\($0)?)" } ?? ""
                throw .usage("unknown option --\(name) for `outbox \(command)`\(hint); see `outbox \(command) --help`")
            }
            if spec.takesValue {
                let value: String
                if let inlineValue { value = inlineValue } else {
                    guard index < args.count else { throw .usage("--\(name) needs a value: \(spec.usage)") }
                    value = args[index]
                    index += 1
                }
                if !spec.isRepeatable, result.values[name] != nil {
                    throw .usage("--\(name) was given more than once")
                }
                result.values[name, default: []].append(value)
                result.ordered.append((name, value))
            } else {
                guard inlineValue == nil else { throw .usage("--\(name) takes no value") }
                result.flags.insert(name)
                result.ordered.append((name, nil))
            }
        }
        return result
    }
}

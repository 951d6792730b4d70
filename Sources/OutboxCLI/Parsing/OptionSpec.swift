/// One flag a command accepts. The parser and the generated help both read these.
public struct OptionSpec: Sendable {
    public enum Kind: Sendable {
        /// `--json`: present or not.
        case flag
        /// `--to ADDR`: takes one value; `repeatable` allows it several times.
        case value(name: String, repeatable: Bool)
    }

    public let name: String
    public let kind: Kind
    public let help: String

    public static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .flag, help: help)
    }

    public static func value(_ name: String, _ valueName: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, kind: .value(name: valueName, repeatable: repeatable), help: help)
    }

    var takesValue: Bool { if case .value = kind { true } else { false } }
    var isRepeatable: Bool { if case .value(_, let r) = kind { r } else { false } }

    var usage: String {
        switch kind {
        case .flag: "--\(name)"
        case .value(let valueName, let repeatable): "--\(name) \(valueName)\(repeatable ? "…" : "")"
        }
    }
}

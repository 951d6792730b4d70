import CCups

/// A CUPS destination (`cups_dest_t`) and, once asked for, its capabilities (`cups_dinfo_t`).
final class CUPSDestination {
    let dest: UnsafeMutablePointer<cups_dest_t>
    private var info: OpaquePointer?

    init(_ dest: UnsafeMutablePointer<cups_dest_t>) { self.dest = dest }

    deinit {
        if let info { cupsFreeDestInfo(info) }
        cupsFreeDests(1, dest)
    }

    var name: String { String(cString: dest.pointee.name) }
    var isDefault: Bool { dest.pointee.is_default != 0 }

    func option(_ name: String) -> String? {
        cupsGetOption(name, dest.pointee.num_options, dest.pointee.options).map { String(cString: $0) }
    }

    /// IPP printer-state: 3 idle, 4 processing, 5 stopped.
    var isStopped: Bool { option("printer-state") == "5" }
    var isAcceptingJobs: Bool { option("printer-is-accepting-jobs").map { $0 == "true" || $0 == "1" } ?? true }
    var stateReasons: String { option("printer-state-reasons") ?? "none" }

    /// `cups_dinfo_t *` for support checks; nil when the printer did not answer.
    func information(_ connection: CUPSConnection) -> OpaquePointer? {
        if info == nil { info = cupsCopyDestInfo(connection.http, dest) }
        return info
    }

    /// The values the printer supports for `option` (`sides`, `media`, `print-color-mode`).
    func supportedValues(_ option: String, connection: CUPSConnection) -> [String] {
        guard let info = information(connection), let attribute = cupsFindDestSupported(connection.http, dest, info, option) else { return [] }
        return (0..<ippGetCount(attribute)).compactMap { index in
            if let text = ippGetString(attribute, index, nil) { return String(cString: text) }
            let value = ippGetInteger(attribute, index)
            return value != 0 ? String(value) : nil
        }
    }

    /// `cupsCheckDestSupported`: false when the printer says it cannot do `option=value`.
    func supports(_ option: String, _ value: String, connection: CUPSConnection) -> Bool {
        guard let info = information(connection) else { return true }
        return cupsCheckDestSupported(connection.http, dest, info, option, value) != 0
    }
}

@available(*, unavailable) extension CUPSDestination: Sendable {}

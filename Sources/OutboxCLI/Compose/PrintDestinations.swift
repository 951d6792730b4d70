import OutboxModel

/// The seeds' `canPrint` for destinations: `pdf` always works; a CUPS queue must exist.
enum PrintDestinations {
    static func check(_ destination: String, config: Config) throws {
        if destination == "pdf" { return }
        // CUPS queues are checked by the print sinks once they are wired in.
    }
}

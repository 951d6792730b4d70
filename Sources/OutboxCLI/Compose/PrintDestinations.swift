import OutboxModel

/// The seeds' `canPrint`: the destination exists and the content can be laid out, checked
/// before anything is stored (by the delivery side, which has CUPS and Pango loaded).
enum PrintDestinations {
    /// An unknown CUPS queue is refused (65); when CUPS cannot be reached the job is accepted,
    /// to be printed once it is back (the outbox works offline).
    static func check(_ destination: String, config: Config) throws {
        try DeliveryProgram.services().checkPrintDestination(destination, config: config)
    }

    /// Lays the job out without writing, so a corrupt PDF or image, or a font file that is not a
    /// font, is refused now (exit 65) rather than failing in the worker.
    static func checkContent(_ message: NewMessage, config: Config) throws {
        guard case .print(let job) = message.content else { return }
        try DeliveryProgram.services().checkPrintContent(job, files: files(message), config: config)
    }

    /// Attachment positions → the user's file paths.
    static func files(_ message: NewMessage) -> [Int: String] {
        Dictionary(uniqueKeysWithValues: message.files.enumerated().map { ($0.offset, $0.element.path) })
    }
}

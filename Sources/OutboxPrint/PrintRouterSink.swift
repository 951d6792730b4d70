import OutboxEngine
import OutboxModel

/// Routes each print delivery by its destination: `pdf` to the PDF sink, anything else to
/// the CUPS queue of that name. One sink per channel is what the worker expects; the
/// destination is per job (`--to`).
struct PrintRouterSink: Sink {
    static let pdfDestination = "pdf"

    let config: PrintConfig
    let pdf: PDFSink
    let cups: CUPSSink

    init(config: PrintConfig) {
        self.config = config
        pdf = PDFSink(config: config)
        cups = CUPSSink(config: config)
    }

    var channel: Channel { .print }
    var name: String { isPDF(nil) ? pdf.name : cups.name }
    var destinationDescription: String { isPDF(nil) ? pdf.destinationDescription : cups.destinationDescription }

    private func isPDF(_ destination: String?) -> Bool {
        (destination ?? config.defaultDestination) == Self.pdfDestination
    }

    func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt {
        isPDF(delivery.destination) ? try pdf.deliver(delivery) : try cups.deliver(delivery)
    }

    func probe() -> SinkProbe { isPDF(nil) ? pdf.probe() : cups.probe() }

    func followUp(_ message: SubmittedMessage) -> FollowUp? {
        // The PDF sink never leaves a message submitted.
        isPDF(message.destination) ? nil : cups.followUp(message)
    }
}

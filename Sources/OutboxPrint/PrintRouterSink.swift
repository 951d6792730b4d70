import OutboxEngine
import OutboxModel

/// Routes each print delivery by its destination: `pdf` to the PDF sink, anything else to
/// the CUPS queue of that name.
struct PrintRouterSink: Sink {
    static let pdfDestination = "pdf"

    let config: PrintConfig
    let pdf: PDFSink

    init(config: PrintConfig) {
        self.config = config
        pdf = PDFSink(config: config)
    }

    var channel: Channel { .print }
    var name: String { config.defaultDestination == Self.pdfDestination ? "pdf" : "cups" }
    var destinationDescription: String { pdf.destinationDescription }

    func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt {
        try pdf.deliver(delivery)
    }
}

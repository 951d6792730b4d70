import CCups
import OutboxModel

/// The IPP job template attributes of a print job, as a `cups_option_t` array.
struct CUPSJobOptions {
    private(set) var pairs: [(name: String, value: String)] = []

    /// `rangesApplied`: our renderer already selected the pages, so CUPS must not again.
    init(info: PrintInfo, paper: PaperSize?, sendOrientation: Bool, rangesApplied: Bool) {
        if info.copies > 1 { pairs.append(("copies", String(info.copies))) }
        switch info.duplex {
        case .none: pairs.append(("sides", "one-sided"))
        case .longEdge: pairs.append(("sides", "two-sided-long-edge"))
        case .shortEdge: pairs.append(("sides", "two-sided-short-edge"))
        }
        if sendOrientation, let orientation = info.orientation {
            pairs.append(("orientation-requested", orientation == .portrait ? "3" : "4"))
        }
        if let paper, let media = Self.mediaName(paper) { pairs.append(("media", media)) }
        pairs.append(("print-color-mode", info.outputType == .grayscale ? "monochrome" : "color"))
        if info.outputType == .photo { pairs.append(("print-quality", "5")) }
        if !rangesApplied, let ranges = info.pageRanges { pairs.append(("page-ranges", ranges)) }
    }

    /// The PWG self-describing media name libcups knows for a size (`iso_a4_210x297mm`).
    static func mediaName(_ size: PaperSize) -> String? {
        let portrait = size.portrait
        let toHundredthsMM = { (points: Double) in Int32((points * 2540 / 72).rounded()) }
        guard let media = pwgMediaForSize(toHundredthsMM(portrait.width), toHundredthsMM(portrait.height)),
              let name = media.pointee.pwg else { return nil }
        return String(cString: name)
    }

    /// Calls `body` with the options as libcups wants them, freed afterwards.
    func withCOptions<T>(_ body: (Int32, UnsafeMutablePointer<cups_option_t>?) throws -> T) rethrows -> T {
        var options: UnsafeMutablePointer<cups_option_t>?
        var count: Int32 = 0
        for (name, value) in pairs { count = cupsAddOption(name, value, count, &options) }
        defer { cupsFreeOptions(count, options) }
        return try body(count, options)
    }
}

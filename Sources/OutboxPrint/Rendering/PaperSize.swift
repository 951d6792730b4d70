import Foundation

/// A page size in PostScript points, from a paper name (`A4`, `Letter`, …) or `WxH` with a
/// unit (`210x297mm`, `8.5x11in`, `612x792pt`, `21x29.7cm`).
public struct PaperSize: Equatable, Sendable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    static let millimetre = 72.0 / 25.4

    /// Named sizes, portrait. ISO sizes in mm, North American ones in points.
    static let named: [String: PaperSize] = [
        "a3": .init(width: 297 * millimetre, height: 420 * millimetre),
        "a4": .init(width: 210 * millimetre, height: 297 * millimetre),
        "a5": .init(width: 148 * millimetre, height: 210 * millimetre),
        "b5": .init(width: 176 * millimetre, height: 250 * millimetre),
        "letter": .init(width: 612, height: 792),
        "legal": .init(width: 612, height: 1008),
        "tabloid": .init(width: 792, height: 1224),
    ]

    /// Parses a paper name or a custom size; the error names the accepted forms.
    public static func parse(_ text: String) throws(PrintRenderError) -> PaperSize {
        let key = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let size = named[key] { return size }
        let units: [(String, Double)] = [("mm", millimetre), ("cm", 10 * millimetre), ("in", 72), ("pt", 1)]
        for (suffix, factor) in units where key.hasSuffix(suffix) {
            let parts = key.dropLast(suffix.count).split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else { break }
            let size = PaperSize(width: w * factor, height: h * factor)
            // One inch to five metres: anything else is a typo, not a paper.
            guard (72...14_400).contains(size.width), (72...14_400).contains(size.height) else {
                throw .bad("paper \(text) is out of range: each side must be between 1 in and 5 m")
            }
            return size
        }
        throw .bad("unknown paper \(text): use A3, A4, A5, B5, Letter, Legal, Tabloid or WxH with mm, cm, in or pt (210x297mm)")
    }

    var isLandscape: Bool { width > height }
    /// The same paper turned so its long side is horizontal.
    var landscape: PaperSize { isLandscape ? self : .init(width: height, height: width) }
    var portrait: PaperSize { isLandscape ? .init(width: height, height: width) : self }
}

import Foundation

/// CUPS-style page ranges (`1-3,5,8-`), 1-based, parsed once so the renderer selects exactly
/// the pages CUPS would have.
public struct PageRangeSet: Equatable, Sendable {
    /// Closed ranges; `upper == nil` means "to the end".
    public var ranges: [(lower: Int, upper: Int?)]

    public static func == (a: PageRangeSet, b: PageRangeSet) -> Bool {
        a.ranges.elementsEqual(b.ranges) { $0.lower == $1.lower && $0.upper == $1.upper }
    }

    public static func parse(_ text: String) throws(PrintRenderError) -> PageRangeSet {
        var ranges: [(Int, Int?)] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let piece = part.trimmingCharacters(in: .whitespaces)
            let bounds = piece.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            let lower = Int(bounds[0])
            let upper: Int?? = bounds.count == 1 ? .some(lower) : (bounds[1].isEmpty ? .some(nil) : Int(bounds[1]).map { .some($0) })
            guard let lower, lower >= 1, let upper, upper.map({ $0 >= lower }) ?? true else {
                throw .bad("bad page range \(piece.isEmpty ? "(empty)" : piece) in \(text): use 1-3,5,8-")
            }
            ranges.append((lower, upper))
        }
        return PageRangeSet(ranges: ranges)
    }

    public func contains(_ page: Int) -> Bool {
        ranges.contains { page >= $0.lower && page <= ($0.upper ?? Int.max) }
    }

    /// 0-based indexes of the selected pages of a document of `count` pages, in order.
    func select(from count: Int) -> [Int] { (0..<count).filter { contains($0 + 1) } }
}

/// Plain-text blocks the layout pass captured (`CapturedBlock`) for the draw pass. Bounded:
/// past `budget` bytes later blocks are laid out again when drawn, so memory stays flat however
/// long the document. The draw pass takes each block out, which frees it after its last page.
final class CapturedBlocks {
    /// About 3 million glyphs: some 600 pages of dense plain text (a 66-line page of 70
    /// characters a line takes some 34 KB).
    static let defaultBudget = 20 << 20

    let budget: Int
    private var blocks: [Int: CapturedBlock] = [:]
    private var held = 0

    init(budget: Int = CapturedBlocks.defaultBudget) {
        self.budget = budget
    }

    /// Whether another block may still be kept: capturing one is only worth it then.
    var hasRoom: Bool { held < budget }

    /// Keeps block `index` if the budget allows; says whether it did.
    @discardableResult
    func keep(_ block: CapturedBlock, index: Int) -> Bool {
        let bytes = block.bytes
        guard held + bytes <= budget else { return false }
        blocks[index] = block
        held += bytes
        return true
    }

    /// The captured block `index`, removed from the store.
    func take(_ index: Int) -> CapturedBlock? {
        blocks.removeValue(forKey: index)
    }
}

@available(*, unavailable) extension CapturedBlocks: Sendable {}

/// Blocks the layout pass keeps for the draw pass, so their text is shaped and broken into
/// lines once instead of twice: captured glyph runs of plain text (`CapturedBlock`), and Pango
/// layouts of markup and of what cannot be captured (`LaidOutBlock`).
///
/// Bounded: once `budget` bytes are kept, later blocks are laid out again when they are drawn,
/// so memory stays flat however long the document is. The draw pass takes each block out as
/// it draws it, which frees it after its last page.
final class KeptBlocks<Block> {
    let budget: Int
    private var blocks: [Int: Block] = [:]
    private var held = 0

    init(budget: Int) {
        self.budget = budget
    }

    /// Whether another block may still be kept: preparing one is only worth it then.
    var hasRoom: Bool { held < budget }

    /// Keeps block `index` (costing `bytes` of the budget) if the budget allows; says whether it did.
    @discardableResult
    func keep(_ block: Block, index: Int, bytes: Int) -> Bool {
        guard held + bytes <= budget else { return false }
        blocks[index] = block
        held += bytes
        return true
    }

    /// The kept block `index`, removed from the store.
    func take(_ index: Int) -> Block? {
        blocks.removeValue(forKey: index)
    }
}

@available(*, unavailable) extension KeptBlocks: Sendable {}

extension KeptBlocks where Block == CapturedBlock {
    /// About 3 million glyphs: some 600 pages of dense plain text (a 66-line page of 70
    /// characters a line takes some 34 KB).
    static var captureBudget: Int { 20 << 20 }

    @discardableResult
    func keep(_ block: CapturedBlock, index: Int) -> Bool { keep(block, index: index, bytes: block.bytes) }
}

extension KeptBlocks where Block == LaidOutBlock {
    /// Counted in bytes of text laid out: Pango holds about 50 bytes per byte of laid-out text,
    /// so 512 KB of text (some 110 pages of dense plain text) cost about 27 MB.
    static var layoutBudget: Int { 512 * 1024 }
}

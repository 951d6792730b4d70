/// Block layouts made by the layout pass, kept for the draw pass so the first pages' text is
/// shaped and broken into lines once instead of twice. Plain text goes to `CapturedBlocks`
/// instead, at a tenth of the memory; this keeps markup and what cannot be captured (and
/// everything on the one-pass path, which draws each page as soon as it is laid out).
///
/// Bounded by the text it holds: once `budget` bytes of text are kept, later blocks are laid
/// out again when they are drawn, so memory stays flat however long the document is. The
/// draw pass takes each block out as it draws it, which frees it after its last page.
final class LaidOutBlockCache {
    /// Pango holds about 50 bytes per byte of laid-out text: 512 KB of text (some 110 pages of
    /// dense plain text) cost about 27 MB.
    static let defaultBudget = 512 * 1024

    let budget: Int
    private var blocks: [Int: LaidOutBlock] = [:]
    private var held = 0

    init(budget: Int = LaidOutBlockCache.defaultBudget) {
        self.budget = budget
    }

    /// Keeps the layout of block `index` (`bytes` of text) if the budget allows.
    func keep(_ block: LaidOutBlock, index: Int, bytes: Int) {
        guard held + bytes <= budget else { return }
        blocks[index] = block
        held += bytes
    }

    /// The kept layout of block `index`, removed from the cache.
    func take(_ index: Int) -> LaidOutBlock? {
        blocks.removeValue(forKey: index)
    }
}

@available(*, unavailable) extension LaidOutBlockCache: Sendable {}
